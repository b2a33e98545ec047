"""Evaluation on the WSI benchmarks: dataset readers, key files, the official metrics and scoring."""
