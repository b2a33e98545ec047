"""The encoder: contextual word vectors for character spans of texts, in batched forward passes.

>>> enc = Encoder()                                   # doctest: +SKIP
>>> X = enc.embed_spans(["A mouse ran.", "Click the mouse."], [(2, 7), (10, 15)])  # doctest: +SKIP
>>> X.shape                                           # doctest: +SKIP
(2, 384)

How it works: every distinct text is tokenised once; each occurrence gets a window (see
:mod:`wsd.embed.windows`); identical windows are encoded once; windows are sorted by length and run in
batches under ``torch.inference_mode``; the hidden states of the requested layers are gathered at the
occurrence's subword pieces only, combined (:mod:`wsd.embed.layers`) and pooled (:mod:`wsd.embed.pooling`);
results come back in the caller's order.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import torch
from tqdm.auto import tqdm

from wsd.embed.context import ContextSpec, encode_with_context, parse_context
from wsd.embed.layers import LayerSpec, parse_layers
from wsd.embed.models import LoadedEncoder, load_encoder
from wsd.embed.pooling import check_pooling, pool_pieces, pooled_dim
from wsd.embed.windows import WindowPlan, plan_windows
from wsd.errors import ConfigError

DEFAULT_LAYERS = "sum-last-4"
DEFAULT_POOLING = "mean"
DEFAULT_BATCH_SIZE = 32
"""Windows per forward pass on a CPU: 32 was fastest of 16/32/64/256 on 2 cores in bf16 and fp32
(the levers table of experiments/results/bench_embed.md; larger batches are slower: shared/PERF-NOTES.md)."""
DEFAULT_GPU_BATCH_SIZE = 256
"""Windows per forward pass on a GPU (fastest of 64/256/1024 on an H200: experiments/results/bench_gpu.md)."""

Config = tuple[LayerSpec, str]


class Encoder:
    """Contextual (or static) word vectors from a Hugging Face encoder.

    Parameters
    ----------
    model : str or path, optional
        ``None`` for the bundled all-MiniLM-L6-v2; a local folder or a name in the Hugging Face cache.
    layers : str
        Layer combination (:mod:`wsd.embed.layers`): ``sum-last-4`` (default), ``last``, ``mean-last-4``,
        ``concat-last-4``, ``mean-all``, ``-4,-3,-2,-1``, a single index, or ``static``.
    pooling : str
        Subword pooling (:mod:`wsd.embed.pooling`): ``mean`` (default), ``first``, ``last``, ``first-last``,
        ``sum``, ``max``.
    device : str, optional
        ``None``/``"auto"`` picks CUDA when present, else CPU.
    precision : str
        ``auto`` (bf16 where the hardware computes it natively, else fp32), ``fp32``, ``bf16``, ``fp16`` (GPU),
        ``int8`` (CPU dynamic quantisation).
    batch_size : int, optional
        Windows per forward pass (default: 32 on a CPU, 256 on a GPU).
    max_length : int, optional
        Longest window in tokens including special tokens (default: the model's limit, at most 512).
    window_tokens : int, optional
        At most this many subword tokens either side of the occurrence (default: as many as fit).
    progress : bool
        Show a tqdm progress bar.
    context_vector : str, optional
        Append a pooled vector of the tokens around each occurrence (:mod:`wsd.embed.context`):
        ``"10"`` (±10 tokens, last layer, weight 0.5) or ``"TOKENS:LAYERS:WEIGHT"``; each word vector is
        then ``[target/‖target‖, weight·context/‖context‖]``. ``None`` (default): the target vector alone.

    Examples
    --------
    >>> enc = Encoder(layers="sum-last-4", pooling="mean")          # doctest: +SKIP
    >>> enc.embed_spans(["The bank was closed."], [(4, 8)]).shape   # doctest: +SKIP
    (1, 384)
    """

    def __init__(
        self,
        model: str | None = None,
        layers: str = DEFAULT_LAYERS,
        pooling: str = DEFAULT_POOLING,
        device: str | None = None,
        precision: str = "auto",
        batch_size: int | None = None,
        max_length: int | None = None,
        window_tokens: int | None = None,
        progress: bool = False,
        context_vector: str | ContextSpec | None = None,
    ) -> None:
        if batch_size is not None and batch_size < 1:
            raise ConfigError(f"batch_size must be at least 1, not {batch_size}")
        self.layers = parse_layers(layers)
        self.pooling = check_pooling(pooling)
        self.batch_size = int(batch_size) if batch_size is not None else DEFAULT_BATCH_SIZE
        self.window_tokens = window_tokens
        self.progress = progress
        self.loaded: LoadedEncoder = load_encoder(model, device=device, precision=precision, max_length=max_length)
        if batch_size is None and self.loaded.device.type == "cuda":
            self.batch_size = DEFAULT_GPU_BATCH_SIZE
        self.layers.resolve(self.loaded.num_layers)
        self.context_vector = parse_context(context_vector)
        if self.context_vector is not None:
            self.context_vector.layers.resolve(self.loaded.num_layers)

    # ----------------------------------------------------------------- identity
    @property
    def dim(self) -> int:
        """Dimension of the word vectors with the default layers and pooling (and the context, if any)."""
        return self.word_dim(self.layers, self.pooling)

    def output_dim(self, layers: str | LayerSpec, pooling: str) -> int:
        """Dimension of the target vector alone for a layers/pooling choice (without the context)."""
        return pooled_dim(pooling, parse_layers(layers).output_dim(self.loaded.hidden_size))

    def word_dim(self, layers: str | LayerSpec, pooling: str) -> int:
        """Dimension of the word vectors this encoder returns for a layers/pooling choice."""
        extra = self.context_vector.output_dim(self.loaded.hidden_size) if self.context_vector is not None else 0
        return self.output_dim(layers, pooling) + extra

    def metadata(self, layers: str | LayerSpec | None = None, pooling: str | None = None) -> dict[str, Any]:
        """What identifies these vectors: model, its fingerprint, layers, pooling, window, precision, dim.

        Vectors with different metadata must never be mixed (a sense model checks it before predicting).
        With a context vector, ``context_vector`` (its canonical string) is added and ``dim`` includes it.
        """
        spec = parse_layers(layers) if layers is not None else self.layers
        pool = check_pooling(pooling) if pooling is not None else self.pooling
        meta = {
            "model": self.loaded.name,
            "model_fingerprint": self.loaded.fingerprint,
            "layers": spec.name,
            "pooling": pool,
            "max_length": self.loaded.max_length,
            "window_tokens": self.window_tokens,
            "precision": self.loaded.precision,
            "dim": self.word_dim(spec, pool),
        }
        if self.context_vector is not None:
            meta["context_vector"] = self.context_vector.name
        return meta

    def run_identity(self, layers: str | LayerSpec | None = None, pooling: str | None = None) -> dict[str, Any]:
        """What a run store records as its ``embed`` configuration: everything that changes the vectors
        (model and fingerprint, layers, pooling, precision, windows, context vector) and the batch size.

        Resuming a run with an encoder whose identity differs is refused.
        """
        spec = parse_layers(layers) if layers is not None else self.layers
        spec.resolve(self.loaded.num_layers)
        identity = {key: value for key, value in self.metadata(spec, pooling).items() if key != "dim"}
        return identity | {"batch_size": self.batch_size, "context_vector": identity.get("context_vector")}

    # ----------------------------------------------------------------- public embedding API
    def embed_spans(
        self,
        texts: Sequence[str],
        spans: Sequence[tuple[int, int]] | np.ndarray,
        layers: str | None = None,
        pooling: str | None = None,
        progress: bool | None = None,
    ) -> np.ndarray:
        """One vector per ``(texts[i], spans[i])``: the word at characters ``spans[i] = (start, end)``.

        Returns a float32 array of shape ``(len(texts), dim)`` in the order given. ``layers`` and ``pooling``
        override the encoder's defaults for this call.
        """
        spec = parse_layers(layers) if layers is not None else self.layers
        pool = check_pooling(pooling) if pooling is not None else self.pooling
        return self.embed_configs(texts, spans, [(spec, pool)], progress=progress)[0]

    def embed_occurrences(self, occurrences: pd.DataFrame, **kwargs: Any) -> np.ndarray:
        """Vectors for the rows of an occurrence table (its ``text``, ``start`` and ``end`` columns)."""
        spans = occurrences[["start", "end"]].to_numpy(dtype=np.int64)
        return self.embed_spans(occurrences["text"].tolist(), spans, **kwargs)

    def embed_configs(
        self,
        texts: Sequence[str],
        spans: Sequence[tuple[int, int]] | np.ndarray,
        configs: Sequence[tuple[str | LayerSpec, str]],
        progress: bool | None = None,
    ) -> list[np.ndarray]:
        """Vectors for several (layers, pooling) choices from ONE forward pass over the windows.

        Used by ablations: ``embed_configs(texts, spans, [("last", "mean"), ("static", "mean")])``. With a
        ``context_vector`` every result is the target + context vector (:mod:`wsd.embed.context`).
        """
        parsed = [(parse_layers(layers), check_pooling(pooling)) for layers, pooling in configs]
        for spec, _ in parsed:
            spec.resolve(self.loaded.num_layers)
        show = self.progress if progress is None else progress
        return self.encode_words(self.plan(texts, spans), parsed, progress=show)

    # ----------------------------------------------------------------- the two steps
    def plan(self, texts: Sequence[str], spans: Sequence[tuple[int, int]] | np.ndarray) -> WindowPlan:
        """Tokenise the texts and choose every occurrence's window (no model call)."""
        loaded = self.loaded
        budget = loaded.max_length - len(loaded.prefix_ids) - len(loaded.suffix_ids)
        return plan_windows(loaded.backend, texts, spans, budget, self.window_tokens)

    def encode_words(self, plan: WindowPlan, configs: Sequence[Config], progress: bool = False) -> list[np.ndarray]:
        """The word vectors of the planned occurrences for each parsed config: :meth:`encode_plan`, plus the
        context vector beside each when the encoder has one (still one forward pass per window)."""
        if self.context_vector is None:
            return self.encode_plan(plan, configs, progress=progress)
        return encode_with_context(self, plan, configs, self.context_vector, progress=progress)

    def encode_plan(self, plan: WindowPlan, configs: Sequence[Config], progress: bool = False) -> list[np.ndarray]:
        """Run the model over the planned windows and pool one vector per occurrence for each config
        (the target's own vector, without any context vector: see :meth:`encode_words`)."""
        count = len(plan.window_of)
        outputs = [np.empty((count, self.output_dim(spec, pool)), dtype=np.float32) for spec, pool in configs]
        if count == 0:
            return outputs
        for index, (spec, pool) in enumerate(configs):
            if spec.is_static:
                outputs[index][:] = self._static(plan, pool)
        contextual = [(i, spec, pool) for i, (spec, pool) in enumerate(configs) if not spec.is_static]
        if not contextual:
            return outputs
        needed = sorted({layer for _, spec, _ in contextual for layer in spec.resolve(self.loaded.num_layers)})
        by_window = np.argsort(plan.window_of, kind="stable")
        window_ptr = np.searchsorted(plan.window_of[by_window], np.arange(len(plan.windows) + 1))
        lengths = np.fromiter((len(w) for w in plan.windows), dtype=np.int64, count=len(plan.windows))
        order = np.argsort(-lengths, kind="stable")
        bar = tqdm(total=count, unit="occ", desc="embedding", disable=not progress, leave=False)
        with torch.inference_mode(), self._autocast():
            for begin in range(0, len(order), self.batch_size):
                batch = order[begin : begin + self.batch_size]
                members = np.concatenate([by_window[window_ptr[w] : window_ptr[w + 1]] for w in batch])
                row_of_window = np.empty(len(plan.windows), dtype=np.int64)
                row_of_window[batch] = np.arange(len(batch))
                states = self._forward(plan, batch, lengths, needed)
                rows, cols, segment = self._piece_index(plan, members, row_of_window)
                rows_t = torch.from_numpy(rows).to(self.loaded.device)
                cols_t = torch.from_numpy(cols).to(self.loaded.device)
                gathered = {layer: states[layer][rows_t, cols_t].float().cpu() for layer in needed}
                segment_t = torch.from_numpy(segment)
                for index, spec, pool in contextual:
                    positions = spec.resolve(self.loaded.num_layers)
                    tokens = spec.combine_tokens(torch.stack([gathered[p] for p in positions]))
                    outputs[index][members] = pool_pieces(tokens, segment_t, len(members), pool).numpy()
                bar.update(len(members))
        bar.close()
        return outputs

    # ----------------------------------------------------------------- internals
    def _autocast(self) -> contextlib.AbstractContextManager:
        loaded = self.loaded
        if loaded.device.type == "cuda" and loaded.precision in ("bf16", "fp16"):
            dtype = torch.bfloat16 if loaded.precision == "bf16" else torch.float16
            return torch.autocast("cuda", dtype=dtype)
        return contextlib.nullcontext()

    def _forward(
        self, plan: WindowPlan, batch: np.ndarray, lengths: np.ndarray, needed: list[int]
    ) -> Sequence[torch.Tensor]:
        """Hidden states ``(batch, tokens, hidden)`` per layer for a batch of windows."""
        loaded = self.loaded
        prefix, suffix = loaded.prefix_ids, loaded.suffix_ids
        width = int(lengths[batch].max()) + len(prefix) + len(suffix)
        pad_id = loaded.tokenizer.pad_token_id if loaded.tokenizer.pad_token_id is not None else 0
        input_ids = np.full((len(batch), width), pad_id, dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.int64)
        for row, window in enumerate(batch):
            ids = np.concatenate([prefix, plan.windows[window], suffix]) if (prefix or suffix) else plan.windows[window]
            input_ids[row, : len(ids)] = ids
            mask[row, : len(ids)] = 1
        ids_t, mask_t = torch.from_numpy(input_ids), torch.from_numpy(mask)
        if loaded.device.type == "cuda":
            ids_t = ids_t.pin_memory().to(loaded.device, non_blocking=True)
            mask_t = mask_t.pin_memory().to(loaded.device, non_blocking=True)
        only_last = needed == [loaded.num_layers]
        out = loaded.model(input_ids=ids_t, attention_mask=mask_t, output_hidden_states=not only_last)
        if only_last:
            states: list[Any] = [None] * (loaded.num_layers + 1)
            states[loaded.num_layers] = out.last_hidden_state
            return states
        return out.hidden_states

    def _piece_index(
        self, plan: WindowPlan, members: np.ndarray, row_of_window: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Batch row, token column and occurrence number of every piece of ``members`` (vectorised)."""
        counts = plan.num_pieces[members]
        segment = np.repeat(np.arange(len(members)), counts)
        first_of_segment = np.repeat(np.cumsum(counts) - counts, counts)
        within = np.arange(counts.sum()) - first_of_segment
        rows = np.repeat(row_of_window[plan.window_of[members]], counts)
        cols = np.repeat(plan.piece_start[members], counts) + within + len(self.loaded.prefix_ids)
        return rows, cols, segment

    def _static(self, plan: WindowPlan, pooling: str) -> np.ndarray:
        """Context-free vectors: the input embedding lookup of each occurrence's pieces, pooled."""
        count = len(plan.window_of)
        counts = plan.num_pieces
        segment = np.repeat(np.arange(count), counts)
        ids = np.concatenate(
            [plan.windows[w][s:e] for w, s, e in zip(plan.window_of, plan.piece_start, plan.piece_end, strict=True)]
        )
        table = self.loaded.model.get_input_embeddings()
        with torch.inference_mode():
            vectors = table(torch.from_numpy(ids).to(self.loaded.device)).float().cpu()
        return pool_pieces(vectors, torch.from_numpy(segment), count, pooling).numpy()
