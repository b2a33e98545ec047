"""The input/output room: everything about wsd's files on disk, below every stage.

- :mod:`~wsd.io.layout`: the name of every folder and file wsd writes (a run, a senses folder, an output folder);
- :mod:`~wsd.io.manifest`: which files wsd wrote (``wsd-manifest.jsonl``: each file's size and SHA-256);
- :mod:`~wsd.io.atomic`: the one atomic write every writer uses;
- :mod:`~wsd.io.lock`: one writer per output folder;
- :mod:`~wsd.io.outputs`: whether a destination may be written (``--out``, ``--overwrite``);
- :mod:`~wsd.io.store`: a run, the folder ``wsd embed`` writes and :func:`wsd.load_run` reads;
- :mod:`~wsd.io.locate`: finding a run, its senses and its change folder from any folder of one layout;
- :mod:`~wsd.io.textfiles`: reading every user-given text file (UTF-8, long lines, one-line errors).
"""
