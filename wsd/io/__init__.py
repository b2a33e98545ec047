"""The input/output room: everything about wsd's files on disk, below every stage.

- :mod:`~wsd.io.layout`: the name of every folder and file wsd writes (a run, a senses folder, an output folder);
- :mod:`~wsd.io.manifest`: which files wsd wrote (``wsd-manifest.jsonl``: each file's size and SHA-256);
- :mod:`~wsd.io.atomic`: the one atomic write every writer uses;
- :mod:`~wsd.io.lock`: one writer per output folder;
- :mod:`~wsd.io.outputs`: whether a destination may be written (``--out``, ``--overwrite``);
- :mod:`~wsd.io.writers`: JSON, Parquet and ``.npy`` written atomically, each returning its SHA-256;
- :mod:`~wsd.io.checksums`: a file's checksum record (size, SHA-256), sealed JSON records, and their checks;
- :mod:`~wsd.io.provenance`: what made a file (its configuration's fingerprint, the library versions);
- :mod:`~wsd.io.meta_types`: the shape of the metadata files (a run's and a senses folder's ``meta.json``,
  ``change.json``) and the check of one read back;
- :mod:`~wsd.io.run_store`: writing a run, the folder ``wsd embed`` writes (parts, resume, heal, finish);
- :mod:`~wsd.io.run_checks`: whether a run's files are still what was written;
- :mod:`~wsd.io.run_reader`: reading a run (:func:`wsd.load_run`), its ``meta.json`` and that of its senses;
- :mod:`~wsd.io.rows`: rows of a memory-mapped vector file, by reference (:class:`~wsd.io.rows.MappedRows`);
- :mod:`~wsd.io.locate`: finding a run, its senses and its change folder from any folder of one layout;
- :mod:`~wsd.io.textfiles`: reading every user-given text file (UTF-8, long lines, one-line errors).
"""
