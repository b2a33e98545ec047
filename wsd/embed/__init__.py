"""Embedding: loading encoders, context windows, the batched forward pass, layer and subword pooling."""
