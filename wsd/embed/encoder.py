"""The encoder: contextual word vectors for character spans of texts, in batched forward passes.

>>> enc = Encoder()                                   # doctest: +SKIP
>>> X = enc.embed_spans(["A mouse ran.", "Click the mouse."], [(2, 7), (10, 15)])  # doctest: +SKIP
>>> X.shape                                           # doctest: +SKIP
(2, 384)

How it works: every distinct text is tokenised once; each occurrence gets a window (see
:mod:`wsd.embed.windows`); identical windows are encoded once; windows are sorted by length and run in
batches under ``torch.inference_mode``; the hidden states of the requested layers are gathered at the
occurrence's subword pieces only, combined (:mod:`wsd.embed.layers`) and pooled (:mod:`wsd.embed.pooling`);
with a context vector, the tokens around each occurrence are pooled from the same forward pass and set beside
it (:mod:`wsd.embed.context`); results come back in the caller's order.

The public surface: :meth:`Encoder.embed_spans`, :meth:`~Encoder.embed_occurrences`,
:meth:`~Encoder.embed_configs` (several layer/pooling choices from one pass), :meth:`~Encoder.embed_stream`
(a stream of occurrence chunks, the next one tokenised while one runs through the model),
:meth:`~Encoder.with_options` (the same loaded model with other settings), :meth:`~Encoder.identity` (what
identifies the vectors) and :meth:`~Encoder.model_inputs` (the batches the model runs, for benchmarks).
"""

from __future__ import annotations

import contextlib
import copy
import ctypes
import functools
import itertools
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from wsd.embed import calibration
from wsd.embed.batching import batch_sizes
from wsd.embed.calibration import Calibration
from wsd.embed.context import ContextSpec, combine, context_plan, parse_context
from wsd.embed.forward import distinct_pieces
from wsd.embed.identity import EncoderIdentity
from wsd.embed.layers import LayerSpec, parse_layers
from wsd.embed.models import LoadedEncoder, load_encoder
from wsd.embed.pooling import check_pooling, pool_pieces, pooled_dim
from wsd.embed.windows import WindowPlan, piece_groups, plan_windows
from wsd.errors import ConfigError
from wsd.schema import DEFAULT_LAYERS, DEFAULT_POOLING, Pooling, Precision, Runtime

if TYPE_CHECKING:
    import torch

    from wsd.options import EmbeddingOptions

DEFAULT_BATCH_SIZE = 32
"""Windows per forward pass on a CPU: 32 was fastest of 16/32/64/256 on 2 cores in bf16 and fp32
(the levers table of experiments/results/bench_embed/bench_embed.md; larger batches are slower:
shared/PERF-NOTES.md)."""
DEFAULT_GPU_BATCH_SIZE = 256
"""Windows per forward pass on a GPU (fastest of 64/256/1024 on an H200: experiments/results/bench_gpu/bench_gpu.md)."""

#: The settings :meth:`Encoder.with_options` may change (everything but the loaded model).
OPTIONS = ("layers", "pooling", "batch_size", "window_tokens", "progress", "context_vector")

_Config = tuple[LayerSpec, Pooling]
_DONE = object()


class Encoder:
    """Contextual (or static) word vectors from a Hugging Face encoder.

    Parameters
    ----------
    model : str or path, optional
        ``None`` for the bundled all-MiniLM-L6-v2; a local folder; or a Hugging Face Hub name, loaded through
        the Hugging Face cache (downloaded on first use unless offline).
    layers : str
        Layer combination (:mod:`wsd.embed.layers`): ``sum-last-4`` (default), ``last``, ``mean-last-4``,
        ``concat-last-4``, ``mean-all``, ``-4,-3,-2,-1``, a single index, or ``static``.
    pooling : str
        Subword pooling (:mod:`wsd.embed.pooling`): ``mean`` (default), ``first``, ``last``, ``first-last``,
        ``sum``, ``max``.
    device : str, optional
        ``None``/``"auto"`` picks CUDA when present, else CPU.
    precision : str
        ``auto`` (with ``runtime`` ``auto`` on a CPU: measured, see ``runtime``; else bf16 where the hardware
        computes it natively, else fp32), ``fp32``, ``bf16``, ``fp16`` (GPU),
        ``int8`` (OpenVINO on the CPU, the model quantised with NNCF: :mod:`wsd.embed.ov_int8`).
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
    offline : bool, optional
        ``True``: never touch the network (a Hub name must be cached). ``None`` (default): as Hugging Face is
        configured (offline when ``HF_HUB_OFFLINE=1``). See :func:`~wsd.embed.models.load_encoder`.
    runtime : str, optional
        The forward pass's runtime: ``auto`` (the default: OpenVINO on a CPU, the model converted once and
        cached on disk, :mod:`wsd.embed.ov_runtime`, and for ``int8``; PyTorch on a GPU or for ``fp16``), ``torch`` or
        ``openvino``. With ``runtime`` and ``precision`` both ``auto`` on a CPU, the two are chosen by measuring
        (:mod:`wsd.embed.calibration`: once per model and machine, then read from a cache).

    Attributes
    ----------
    calibration : Calibration or None
        How ``auto`` chose the runtime and precision (:class:`~wsd.embed.calibration.Calibration`), None where they
        were given, or chosen by the fixed rule (a GPU, ``$WSD_CALIBRATION=off``).
    loaded : LoadedEncoder
        The tokenizer and model (:mod:`wsd.embed.models`), shared by every encoder made with
        :meth:`with_options`.
    layers : LayerSpec
        The default layer specification (read-only, as are the next ones: change them with
        :meth:`with_options`).
    pooling : str
        The default subword pooling.
    batch_size : int
        Windows per forward pass.
    window_tokens : int or None
        The window limit either side of an occurrence.
    progress : bool
        Whether a progress bar is shown by default.
    context_vector : ContextSpec or None
        The parsed context-vector specification.

    Examples
    --------
    >>> enc = Encoder(layers="sum-last-4", pooling="mean")          # doctest: +SKIP
    >>> enc.embed_spans(["The bank was closed."], [(4, 8)]).shape   # doctest: +SKIP
    (1, 384)
    >>> enc.with_options(context_vector="10").dim                   # doctest: +SKIP
    768
    """

    def __init__(
        self,
        model: str | None = None,
        layers: str = DEFAULT_LAYERS,
        pooling: Pooling = DEFAULT_POOLING,
        device: str | None = None,
        precision: Precision = "auto",
        batch_size: int | None = None,
        max_length: int | None = None,
        window_tokens: int | None = None,
        progress: bool = False,
        context_vector: str | ContextSpec | None = None,
        offline: bool | None = None,
        runtime: Runtime | None = None,
    ) -> None:
        _check_batch_size(batch_size)
        self.calibration: Calibration | None = None
        if calibration.applies(runtime, precision, device):
            self.calibration = calibration.auto_choice(
                model, make_encoder=Encoder, offline=offline, max_length=max_length
            )
            runtime = cast(Runtime, self.calibration.runtime)
            precision = cast(Precision, self.calibration.precision)
            device = "cpu"
        self.loaded: LoadedEncoder = load_encoder(
            model, device=device, precision=precision, max_length=max_length, offline=offline, runtime=runtime
        )
        self._configure(layers, pooling, batch_size, window_tokens, progress, context_vector)

    @classmethod
    def from_options(cls, options: EmbeddingOptions, *, progress: bool = False) -> Encoder:
        """The encoder of an :class:`~wsd.options.EmbeddingOptions` (the keywords of ``__init__`` as one object).

        Parameters
        ----------
        options : EmbeddingOptions
            Model, layers, pooling, precision, runtime, device, batch size, lengths, context vector, offline.
        progress : bool
            Show a tqdm progress bar.

        Returns
        -------
        Encoder

        Examples
        --------
        >>> from wsd.options import EmbeddingOptions
        >>> enc = Encoder.from_options(EmbeddingOptions(layers="last"))   # doctest: +SKIP
        >>> enc.layers.name                                               # doctest: +SKIP
        'last'
        """
        return cls(**options.encoder_kwargs(), progress=progress, offline=True if options.offline else None)

    def _configure(
        self,
        layers: str | LayerSpec,
        pooling: str,
        batch_size: int | None,
        window_tokens: int | None,
        progress: bool,
        context_vector: str | ContextSpec | None,
    ) -> None:
        """Check and set every setting but the model (from ``__init__`` and :meth:`with_options`)."""
        _check_batch_size(batch_size)
        self._layers = parse_layers(layers)
        self._pooling = check_pooling(pooling)
        if batch_size is not None:
            self._batch_size = int(batch_size)
        else:
            self._batch_size = DEFAULT_GPU_BATCH_SIZE if self.loaded.device.type == "cuda" else DEFAULT_BATCH_SIZE
        self._window_tokens = window_tokens
        self._progress = bool(progress)
        self._layers.resolve(self.loaded.num_layers)
        self._context_vector = parse_context(context_vector)
        if self._context_vector is not None:
            self._context_vector.layers.resolve(self.loaded.num_layers)

    # ----------------------------------------------------------------- settings
    @property
    def layers(self) -> LayerSpec:
        """The default layer specification (:mod:`wsd.embed.layers`).

        Returns
        -------
        LayerSpec
            Parsed, checked against the model.
        """
        return self._layers

    @property
    def pooling(self) -> str:
        """The default subword pooling (:mod:`wsd.embed.pooling`).

        Returns
        -------
        str
            One of ``mean``, ``first``, ``last``, ``first-last``, ``sum``, ``max``.
        """
        return self._pooling

    @property
    def batch_size(self) -> int:
        """Windows per forward pass.

        Returns
        -------
        int
            At least 1.
        """
        return self._batch_size

    @property
    def window_tokens(self) -> int | None:
        """At most this many subword tokens either side of an occurrence (``None``: as many as fit).

        Returns
        -------
        int or None
            The limit.
        """
        return self._window_tokens

    @property
    def progress(self) -> bool:
        """Whether the embedding calls show a progress bar unless told otherwise.

        Returns
        -------
        bool
            The default of ``progress``.
        """
        return self._progress

    @property
    def context_vector(self) -> ContextSpec | None:
        """The context-vector specification (:mod:`wsd.embed.context`), ``None`` when off.

        Returns
        -------
        ContextSpec or None
            Parsed, its layers checked against the model.
        """
        return self._context_vector

    def with_options(self, **changes: Any) -> Encoder:
        """The same loaded model with other settings: a new encoder, no reload; this one is unchanged.

        Parameters
        ----------
        **changes
            Any of ``layers``, ``pooling``, ``batch_size`` (``None``: the default for the device),
            ``window_tokens``, ``progress`` and ``context_vector`` (``None`` turns it off), with the meaning
            they have in :class:`Encoder`. Settings not given keep their values.

        Returns
        -------
        Encoder
            A new encoder sharing :attr:`loaded`.

        Raises
        ------
        ConfigError
            For an unknown setting (the model, device, precision and length need a new :class:`Encoder`) or
            a bad value.

        Examples
        --------
        >>> with_context = enc.with_options(context_vector="20:last:0.5")   # doctest: +SKIP
        >>> first = enc.with_options(layers="last", pooling="first")        # doctest: +SKIP
        """
        unknown = sorted(set(changes) - set(OPTIONS))
        if unknown:
            raise ConfigError(
                f"with_options() cannot change {', '.join(unknown)} (it may change {', '.join(OPTIONS)}); "
                "load another Encoder for another model, device, precision or max_length"
            )
        current: dict[str, Any] = {
            "layers": self._layers,
            "pooling": self._pooling,
            "batch_size": self._batch_size,
            "window_tokens": self._window_tokens,
            "progress": self._progress,
            "context_vector": self._context_vector,
        }
        settings = current | changes
        other = copy.copy(self)
        other._configure(
            settings["layers"],
            settings["pooling"],
            settings["batch_size"],
            settings["window_tokens"],
            settings["progress"],
            settings["context_vector"],
        )
        return other

    # ----------------------------------------------------------------- identity
    @property
    def dim(self) -> int:
        """Dimension of the word vectors with the default layers and pooling (and the context, if any).

        Returns
        -------
        int
            Columns of :meth:`embed_spans`' result.
        """
        return self._word_dim(self._layers, self._pooling)

    def identity(self, layers: str | LayerSpec | None = None, pooling: str | None = None) -> EncoderIdentity:
        """What identifies this encoder's vectors for a layers/pooling choice (default: the encoder's own).

        Parameters
        ----------
        layers : str or LayerSpec, optional
            A layer specification; ``None``: :attr:`layers`.
        pooling : str, optional
            A subword pooling; ``None``: :attr:`pooling`.

        Returns
        -------
        EncoderIdentity
            Model and fingerprint, layers, pooling, windows, precision, context vector, batch size and
            ``dim``. Take :meth:`EncoderIdentity.embedding_meta` to store with vectors (a sense model
            compares it before predicting) and :meth:`EncoderIdentity.run_config` for a run's ``embed``
            configuration (compared on resume).

        Raises
        ------
        ConfigError
            For layers the model does not have, or an unknown pooling.
        """
        spec = parse_layers(layers) if layers is not None else self._layers
        spec.resolve(self.loaded.num_layers)
        pool = check_pooling(pooling) if pooling is not None else self._pooling
        return EncoderIdentity(
            model=self.loaded.name,
            model_fingerprint=self.loaded.fingerprint,
            model_revision=self.loaded.revision,
            layers=spec.name,
            pooling=pool,
            max_length=self.loaded.max_length,
            window_tokens=self._window_tokens,
            precision=self.loaded.precision,
            context_vector=self._context_vector.name if self._context_vector is not None else None,
            batch_size=self._batch_size,
            dim=self._word_dim(spec, pool),
            runtime=self.loaded.runtime,
            quantisation=self.loaded.quantisation,
        )

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

        Parameters
        ----------
        texts : sequence of str
            The texts, one per occurrence (repeats are tokenised once).
        spans : sequence of (int, int) or ndarray of shape (n, 2)
            Character offsets ``(start, end)`` of each occurrence in its text.
        layers : str, optional
            Override the encoder's layers for this call.
        pooling : str, optional
            Override the encoder's subword pooling for this call.
        progress : bool, optional
            Show a progress bar (default: the encoder's ``progress``).

        Returns
        -------
        ndarray of shape (len(texts), dim), float32
            The word vectors, in the order given.

        Raises
        ------
        InputError
            For a span that covers no subword token of its text.
        ConfigError
            For mismatched lengths, unknown layers or pooling.
        """
        spec = parse_layers(layers) if layers is not None else self._layers
        pool = check_pooling(pooling) if pooling is not None else self._pooling
        return self.embed_configs(texts, spans, [(spec, pool)], progress=progress)[0]

    def embed_occurrences(self, occurrences: pd.DataFrame, **kwargs: Any) -> np.ndarray:
        """Vectors for the rows of an occurrence table (its ``text``, ``start`` and ``end`` columns).

        Parameters
        ----------
        occurrences : DataFrame
            An occurrence table (:func:`wsd.scan`, a dataset reader).
        **kwargs
            ``layers``, ``pooling``, ``progress``: as in :meth:`embed_spans`.

        Returns
        -------
        ndarray of shape (len(occurrences), dim), float32
            Row-aligned word vectors.
        """
        spans = occurrences[["start", "end"]].to_numpy(dtype=np.int64)
        return self.embed_spans(occurrences["text"].tolist(), spans, **kwargs)

    def embed_configs(
        self,
        texts: Sequence[str],
        spans: Sequence[tuple[int, int]] | np.ndarray,
        configs: Sequence[tuple[str | LayerSpec, str]],
        progress: bool | None = None,
        *,
        rewrite_plan: Callable[[WindowPlan], WindowPlan] | None = None,
    ) -> list[np.ndarray]:
        """Vectors for several (layers, pooling) choices from ONE forward pass over the windows.

        Used by ablations: ``embed_configs(texts, spans, [("last", "mean"), ("static", "mean")])``. With a
        ``context_vector`` every result is the target + context vector (:mod:`wsd.embed.context`).

        Parameters
        ----------
        texts, spans
            The occurrences, as :meth:`embed_spans` takes them.
        configs : sequence of (layers, pooling)
            The layer specifications and subword poolings wanted.
        progress : bool, optional
            Show a progress bar (default: the encoder's ``progress``).
        rewrite_plan : callable, optional
            For experiments: a function given the :class:`~wsd.embed.windows.WindowPlan` (the windows chosen
            for the occurrences) that returns the plan to encode instead, with one row per occurrence in the
            same order (e.g. the target replaced by a mask token: ``experiments/directions.py``; one window
            per occurrence: ``experiments/bench_embed.py``). ``None``: the plan as chosen.

        Returns
        -------
        list of ndarray of shape (len(texts), dim), float32
            One array per config, in the order of ``configs``.
        """
        parsed = self._parse_configs(configs)
        show = self._progress if progress is None else progress
        plan = self._plan(texts, spans)
        if rewrite_plan is not None:
            plan = rewrite_plan(plan)
            if len(plan.window_of) != len(texts):
                raise ConfigError(f"rewrite_plan returned {len(plan.window_of)} rows for {len(texts)} occurrences")
        return self._encode(plan, parsed, progress=show)

    def embed_stream(
        self, chunks: Iterable[pd.DataFrame], *, timings: dict[str, float] | None = None
    ) -> Generator[np.ndarray, None, None]:
        """Vectors of a stream of occurrence chunks, one array per chunk, in order.

        While chunk ``i`` runs through the model, chunk ``i + 1`` is pulled from ``chunks`` and tokenised
        (its windows planned) in one helper thread, so reading and tokenising overlap the forward passes.
        After each chunk the memory its forward passes freed is handed back to the operating system
        (:func:`release_freed_memory`), so a long stream's resident memory stays that of one chunk.
        The vectors use the encoder's own layers, pooling and context vector (:meth:`with_options` for
        others) and equal :meth:`embed_occurrences` of each chunk.

        Parameters
        ----------
        chunks : iterable of DataFrame
            Occurrence tables with ``text``, ``start`` and ``end`` columns; pulled one at a time, one ahead.
        timings : dict, optional
            When given, seconds are added to ``timings["tokenize_s"]`` (pulling a chunk and planning its
            windows, in the helper thread), ``timings["encode_s"]`` (forward passes and pooling), and within
            it ``timings["forward_s"]`` (the model calls alone) and ``timings["compile_s"]`` (converting and
            compiling the model, OpenVINO runtime); missing keys start at 0.

        Yields
        ------
        ndarray of shape (len(chunk), dim), float32
            The word vectors of each chunk (an empty chunk gives ``(0, dim)``).

        Raises
        ------
        Exception
            Whatever pulling or tokenising a chunk raised in the helper thread is raised here, in the
            caller's thread, when that chunk's turn comes.

        Examples
        --------
        >>> for vectors in enc.embed_stream(store_parts()):   # doctest: +SKIP
        ...     write(vectors)
        """
        config = [(self._layers, self._pooling)]
        source = iter(chunks)
        if not self._layers.is_static:  # the OpenVINO runtime compiles while the first chunk is read and tokenised
            needed = set(self._layers.resolve(self.loaded.num_layers))
            if self._context_vector is not None:
                needed |= set(self._context_vector.layers.resolve(self.loaded.num_layers))
            self.loaded.forward.prepare(sorted(needed))

        def prepare() -> Any:
            clock = time.perf_counter()
            chunk: Any = next(source, _DONE)
            plan = _DONE if chunk is _DONE else self._plan(chunk["text"].tolist(), chunk[["start", "end"]].to_numpy())
            if timings is not None:
                timings["tokenize_s"] = timings.get("tokenize_s", 0.0) + time.perf_counter() - clock
            return plan

        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="wsd-tokenize") as pool, self._settled():
            pending = pool.submit(prepare)
            while True:
                plan = pending.result()
                if plan is _DONE:
                    return
                pending = pool.submit(prepare)
                clock = time.perf_counter()
                forward, compiled = self.loaded.forward.seconds, self.loaded.forward.compile_s
                (vectors,) = self._encode(plan, config)
                del plan  # this chunk's windows are done with
                release_freed_memory()
                if timings is not None:
                    timings["encode_s"] = timings.get("encode_s", 0.0) + time.perf_counter() - clock
                    timings["forward_s"] = timings.get("forward_s", 0.0) + self.loaded.forward.seconds - forward
                    timings["compile_s"] = timings.get("compile_s", 0.0) + self.loaded.forward.compile_s - compiled
                yield vectors

    @contextlib.contextmanager
    def _settled(self) -> Iterator[None]:
        """Leave nothing of the forward pass running in the background when the block ends (errors too)."""
        try:
            yield
        finally:
            self.loaded.forward.settle()

    def model_inputs(
        self, texts: Sequence[str], spans: Sequence[tuple[int, int]] | np.ndarray
    ) -> list[tuple[torch.Tensor, torch.Tensor]]:
        """The batches the model runs for these occurrences: what to time as the bare forward pass.

        Parameters
        ----------
        texts, spans
            The occurrences, as :meth:`embed_spans` takes them.

        Returns
        -------
        list of (input_ids, attention_mask)
            CPU ``int64`` tensors of shape ``(windows in the batch, tokens)``, in the order the encoder runs
            them (unique windows, longest first, at most :attr:`batch_size` at a time, cut by :meth:`_batch_cuts`,
            special tokens added), for ``loaded.model(input_ids=..., attention_mask=...)``.
        """
        import torch

        plan = self._plan(texts, spans)
        lengths, order = _length_order(plan)
        batches = []
        for begin, end in itertools.pairwise(np.cumsum([0, *self._batch_cuts(lengths[order])])):
            input_ids, mask = self._batch_inputs(plan, order[begin:end], lengths)
            batches.append((torch.from_numpy(input_ids), torch.from_numpy(mask)))
        return batches

    # ----------------------------------------------------------------- planning and encoding (private)
    def _parse_configs(self, configs: Sequence[tuple[str | LayerSpec, str]]) -> list[_Config]:
        """Parsed ``(LayerSpec, pooling)`` pairs, their layers checked against the model."""
        parsed = [(parse_layers(layers), check_pooling(pooling)) for layers, pooling in configs]
        for spec, _ in parsed:
            spec.resolve(self.loaded.num_layers)
        return parsed

    def _target_dim(self, layers: str | LayerSpec, pooling: str) -> int:
        """Dimension of the target vector alone for a layers/pooling choice (without the context)."""
        return pooled_dim(pooling, parse_layers(layers).output_dim(self.loaded.hidden_size))

    def _word_dim(self, layers: str | LayerSpec, pooling: str) -> int:
        """Dimension of the word vectors this encoder returns for a layers/pooling choice."""
        extra = self._context_vector.output_dim(self.loaded.hidden_size) if self._context_vector is not None else 0
        return self._target_dim(layers, pooling) + extra

    def _plan(self, texts: Sequence[str], spans: Sequence[tuple[int, int]] | np.ndarray) -> WindowPlan:
        """Tokenise the texts and choose every occurrence's window (no model call)."""
        loaded = self.loaded
        budget = loaded.max_length - len(loaded.prefix_ids) - len(loaded.suffix_ids)
        return plan_windows(loaded.backend, texts, spans, budget, self._window_tokens)

    def _encode(self, plan: WindowPlan, configs: Sequence[_Config], progress: bool = False) -> list[np.ndarray]:
        """The word vectors of the planned occurrences for each parsed config: the target's own vector, with
        the context vector beside it when the encoder has one (still one forward pass per window)."""
        spec = self._context_vector
        if spec is None:
            return self._encode_targets(plan, configs, progress=progress)
        count = len(plan.window_of)
        outputs = self._encode_targets(
            context_plan(plan, spec.tokens), [*configs, (spec.layers, "mean")], progress, occurrences=count
        )
        context = outputs[-1][count:]
        return [combine(vectors[:count], context, spec.weight) for vectors in outputs[:-1]]

    def _encode_targets(
        self, plan: WindowPlan, configs: Sequence[_Config], progress: bool = False, occurrences: int | None = None
    ) -> list[np.ndarray]:
        """Run the model over the planned windows and pool one vector per occurrence for each config
        (the target's own vector, without any context vector: see :meth:`_encode`). The progress bar counts
        the first ``occurrences`` rows (each occurrence once when its context rows follow: :func:`context_plan`)."""
        count = len(plan.window_of)
        outputs = [np.empty((count, self._target_dim(spec, pool)), dtype=np.float32) for spec, pool in configs]
        if count == 0:
            return outputs
        for index, (spec, pool) in enumerate(configs):
            if spec.is_static:
                outputs[index][:] = self._static(plan, pool)
        contextual = [(i, spec, pool) for i, (spec, pool) in enumerate(configs) if not spec.is_static]
        if not contextual:
            return outputs
        needed = sorted({layer for _, spec, _ in contextual for layer in spec.resolve(self.loaded.num_layers)})
        shown = count if occurrences is None else occurrences
        bar = tqdm(total=shown, unit="occ", desc="embedding", disable=not progress, leave=False)
        forward = self.loaded.forward
        with forward.session():
            for members, input_ids, mask, rows, cols, segment in self._window_batches(plan):
                # each distinct token once, then pooled in groups: memory bounded by the batch, not by the
                # occurrences in its windows (a long line with thousands of uses: issue 39)
                gathered, where = distinct_pieces(forward, input_ids, mask, needed, rows, cols)
                tokens = {
                    index: spec.combine_tokens([gathered[p] for p in spec.resolve(self.loaded.num_layers)])
                    for index, spec, _ in contextual
                }
                del gathered
                counts = plan.num_pieces[members]
                bounds = piece_groups(counts)
                piece_bounds = np.concatenate([[0], np.cumsum(counts)])[bounds]
                for group in range(len(bounds) - 1):
                    lo, hi = bounds[group], bounds[group + 1]
                    first, last = piece_bounds[group], piece_bounds[group + 1]
                    picked, local = where[first:last], segment[first:last] - lo
                    for index, _, pool in contextual:
                        outputs[index][members[lo:hi]] = pool_pieces(tokens[index][picked], local, hi - lo, pool)
                bar.update(int(np.count_nonzero(members < shown)))
        bar.close()
        return outputs

    def _batch_cuts(self, ordered_lengths: np.ndarray) -> list[int]:
        """The sizes of the batches windows of these lengths (longest first, :func:`_length_order`) run in: at
        most :attr:`batch_size` each, cut where padding would cost most (:func:`wsd.embed.batching.batch_sizes`)."""
        specials = len(self.loaded.prefix_ids) + len(self.loaded.suffix_ids)
        return batch_sizes(ordered_lengths + specials, self._batch_size)

    def _window_batches(
        self, plan: WindowPlan, size: int | Sequence[int] | None = None
    ) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
        """The forward-pass inputs of ``plan``'s windows, the longest windows first, in the encoder's own batches
        (:meth:`_batch_cuts`), or ``size`` windows a batch.

        ``size`` may also be the sizes of the consecutive batches (summing to the windows): the tuning forward
        pass groups a step's windows by length this way (:func:`wsd.tune.forward.length_groups`).

        Yields ``(members, input_ids, mask, rows, cols, segment)`` a batch: the occurrences whose pieces lie in
        its windows, the model's inputs (:meth:`_batch_inputs`) and where each piece stands in them
        (:meth:`_piece_index`). :meth:`_encode_targets` and the tuning forward pass (:mod:`wsd.tune.forward`) both
        batch through here.
        """
        by_window = np.argsort(plan.window_of, kind="stable")
        window_ptr = np.searchsorted(plan.window_of[by_window], np.arange(len(plan.windows) + 1))
        lengths, order = _length_order(plan)
        if size is None:
            size = self._batch_cuts(lengths[order])
        elif isinstance(size, (int, np.integer)):
            size = [max(int(size), 1)] * -(-len(order) // max(int(size), 1))
        bounds = np.concatenate([[0], np.cumsum(size, dtype=np.int64)])
        for begin, end in itertools.pairwise(bounds):
            batch = order[begin:end]
            members = np.concatenate([by_window[window_ptr[w] : window_ptr[w + 1]] for w in batch])
            row_of_window = np.empty(len(plan.windows), dtype=np.int64)
            row_of_window[batch] = np.arange(len(batch))
            input_ids, mask = self._batch_inputs(plan, batch, lengths)
            rows, cols, segment = self._piece_index(plan, members, row_of_window)
            yield members, input_ids, mask, rows, cols, segment

    def _batch_inputs(self, plan: WindowPlan, batch: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``input_ids`` and ``attention_mask`` of a batch of windows, special tokens added, padded."""
        loaded = self.loaded
        prefix, suffix = loaded.prefix_ids, loaded.suffix_ids
        width = int(lengths[batch].max()) + len(prefix) + len(suffix)
        input_ids = np.full((len(batch), width), loaded.pad_id, dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.int64)
        for row, window in enumerate(batch):
            ids = np.concatenate([prefix, plan.windows[window], suffix]) if (prefix or suffix) else plan.windows[window]
            input_ids[row, : len(ids)] = ids
            mask[row, : len(ids)] = 1
        return input_ids, mask

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
        return pool_pieces(self.loaded.input_embeddings(ids), segment, count, pooling)


def release_freed_memory() -> bool:
    """Hand the free pages of the C heap back to the operating system (glibc's ``malloc_trim``).

    The forward passes of a chunk free hundreds of MiB of activations, and the helper thread allocates the
    next chunk's tables and windows at the same time, in between; the C library keeps the freed pages
    resident for reuse, and the holes left between live objects grow chunk after chunk (measured in
    ``experiments/results/bench_embed/bench_embed.md``). Trimming after each chunk keeps a stream's peak memory that of
    one chunk. It frees nothing that is in use and changes no setting; it takes milliseconds.

    Returns
    -------
    bool
        True where the C library has ``malloc_trim`` (glibc); elsewhere nothing is done.
    """
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


@functools.lru_cache(maxsize=1)
def _malloc_trim() -> Any:
    """glibc's ``malloc_trim`` of this process, or None (another C library, another platform)."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError, TypeError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


def _check_batch_size(batch_size: int | None) -> None:
    """Raise ConfigError for a batch size below 1 (``None``: the device's default)."""
    if batch_size is not None and batch_size < 1:
        raise ConfigError(f"batch_size must be at least 1, not {batch_size}")


def _length_order(plan: WindowPlan) -> tuple[np.ndarray, np.ndarray]:
    """Each window's length in tokens, and the windows longest first (ties in plan order)."""
    lengths = np.fromiter((len(w) for w in plan.windows), dtype=np.int64, count=len(plan.windows))
    return lengths, np.argsort(-lengths, kind="stable")
