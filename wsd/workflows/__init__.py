"""The workflows room: the glue above the stages, one job per module.

- :mod:`~wsd.workflows.embedding`: :func:`~wsd.workflows.embedding.embed_corpus`, a corpus becomes a run
  (``wsd embed``);
- :mod:`~wsd.workflows.pipeline`: :func:`~wsd.workflows.pipeline.induce_corpus`, scan → embed → cluster → (score)
  → (change) → (report);
- :mod:`~wsd.workflows.run`: the ``wsd run`` job of a resolved configuration, and the summary it prints;
- :mod:`~wsd.workflows.demo`: ``wsd demo``, the job on the bundled demo corpus;
- :mod:`~wsd.workflows.benchmark`: ``wsd evaluate``, a labelled dataset over seeds, with baselines;
- :mod:`~wsd.workflows.wug`: WUG data scored on senses and change;
- :mod:`~wsd.workflows.vectors`: a labelled dataset's vectors and the leakage guard, for both runners;
- :mod:`~wsd.workflows.results`: ``metrics.json``, the scores document every scoring command writes;
- :mod:`~wsd.workflows.tagger`: :func:`wsd.load`, the senses of sentences in one call.
"""
