"""SenseInducer: the front door of sense induction, one word's occurrence vectors in, its senses out.

It composes the parts, each a scikit-learn estimator of its own: :class:`~wsd.senses.preprocess.Preprocessor`
(the per-word transform), a clusterer from :data:`~wsd.senses.clusterers.CLUSTERERS` or the
:class:`~wsd.senses.dummy.DummyClusterer` baselines, :class:`~wsd.senses.selection.SelectK` when k is chosen,
then the assignment rule (noise, small senses, soft memberships) that makes ``predict`` agree with ``labels_``.
Saving and loading: :mod:`wsd.senses.persistence`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_array, check_is_fitted

from wsd.errors import ConfigError, InputError
from wsd.schema import (
    CLUSTERING_METHODS,
    METHODS,
    NOISES,
    SELECTIONS,
    BaselineMethod,
    ClusteringMethod,
    Noise,
    Selection,
)
from wsd.senses.clusterers import CLUSTERERS
from wsd.senses.dummy import DummyClusterer, random_senses
from wsd.senses.labels import (
    UNASSIGNED,
    assign_noise,
    cluster_means,
    compact_labels,
    merge_small_senses,
    size_renumbering,
)
from wsd.senses.methods import METHOD_METRIC, Clustering
from wsd.senses.preprocess import EPSILON, Preprocessor
from wsd.senses.sampling import (
    CHUNKED_ABOVE,
    DEFAULT_MAX_FIT_SAMPLES,
    fit_on_sample,
    predict_proba_chunked,
    uses_sample,
)
from wsd.senses.selection import SelectK, check_k_range, check_one_sense, fit_k
from wsd.senses.soft import (
    COVARIANCE_TYPES,
    DISTANCES,
    centroid_distances,
    distance_softmax,
    gaussian_posteriors,
    merge_columns,
)
from wsd.senses.validation import (
    Boolean,
    Cosine,
    Fraction,
    Integer,
    NonNegativeReal,
    Options,
    PositiveReal,
    RandomStateLike,
    Real,
    validate_params,
)

if TYPE_CHECKING:
    from wsd.options import SenseOptions

#: The parameter a reader can change to split a word with few uses anyway (named in the reason).
MIN_SPLIT_USES_NAME = "min_split_uses"
#: How a fitted inducer turns vectors into memberships.
ASSIGNMENTS: tuple[str, ...] = ("centroid", "gaussian", "random")
_MAX_ROUNDS = 10


class SenseInducer(ClusterMixin, BaseEstimator):
    """Induce the senses of one word by clustering its occurrence vectors.

    Rows of ``X`` are occurrences of a single word (e.g. 384-dim contextual embeddings). ``fit``
    (1) preprocesses per word (optional centring, L2 normalisation, PCA/whitening; the learned
    transform is kept, so ``predict`` applies the same one to new occurrences), (2) clusters with
    ``method``, choosing the number of senses when ``k="auto"``, (3) handles HDBSCAN noise and merges
    senses smaller than ``min_cluster_size``, then (4) builds the *assignment rule* used by
    ``predict_proba`` and makes the training labels agree with it.

    **Soft memberships.** ``gmm`` uses its native posteriors p(component | x) (summed over
    components that were merged into one sense). Every other method uses the centroid rule
    ``proba = softmax(-d(x, c_j) / temperature)``, where ``c_j`` is the mean (in the transformed
    space) of the vectors the method put in sense j and ``d`` is ``distance``: ``"euclidean"``
    (L2) or ``"cosine"`` (1 − cosine similarity); ``"auto"`` means cosine for ``agglomerative``
    (which clusters by cosine) and Euclidean otherwise. ``temperature="auto"`` is the mean
    distance of the training vectors to the centroid of the sense the method put them in (so
    memberships do not depend on the scale of the vectors; where that is 0, e.g. ``one-per-instance``,
    the mean distance to all centroids, else 1.0). The ``random`` baseline gives one-hot memberships.
    ``gmm`` runs that need no mixture (k = 1 or k = n) use the centroid rule.

    **Hard labels agree with the memberships, by construction.** ``predict(X)`` is
    ``argmax(predict_proba(X))`` for every method, and ``labels_`` is the same argmax on the
    training vectors: after clustering, each training occurrence is assigned to the sense with the
    highest membership (the nearest centroid; for ``gmm`` the most probable sense); senses that then
    receive no occurrence are dropped. For k-means, Ward and GMM this changes nothing or almost
    nothing; for agglomerative, spectral and HDBSCAN a few boundary occurrences may move,
    ``n_reassigned_`` counts them. So ``predict(X_train)`` equals ``labels_`` (except HDBSCAN noise
    kept as -1 with ``noise="keep"``: ``predict`` always assigns a sense), also after save/load.
    The ``random`` baseline draws each occurrence's sense from a seeded hash of its vector bytes
    (:func:`~wsd.senses.dummy.hash_rows`), so the same vector always gets the same random sense.

    **Very frequent words.** A word with more than ``max_fit_samples`` occurrences is fitted on a
    sample of that many of them (drawn by ``random_state``): preprocessing, clustering, the choice of k,
    small senses, the temperature and the assignment rule all come from the sample, and then every
    occurrence is labelled by the assignment rule (nearest centre; ``gmm``: most probable sense; HDBSCAN
    noise kept with ``noise="keep"``: a row whose nearest sampled row is noise), reading the vectors
    block by block, so memory stays bounded and the cost grows linearly (:mod:`wsd.senses.sampling`).
    ``n_reassigned_`` then counts the sample's rows. Words at or below the threshold are fitted exactly
    as before. ``one-per-instance`` is refused above it (n senses do not fit in memory).

    **Label numbering** is deterministic: senses are numbered 0, 1, ... by decreasing size, ties by
    first occurrence; -1 marks unassigned HDBSCAN noise (``noise="keep"`` only).

    **Few occurrences.** A fixed ``k`` is capped at n; k = 1 gives one sense and k = n one sense per
    occurrence without running the method. ``k="auto"`` scores the candidates in ``k_range``
    (inclusive) that the criterion can score on n occurrences (2 ≤ k ≤ n − 1; ``bic``: 1 ≤ k ≤ n − 1);
    with no such candidate (n ≤ 2) it uses ``min(k_range[0], n)`` senses. One occurrence is one sense.

    Parameters
    ----------
    method : str
        A :data:`wsd.schema.ClusteringMethod` or :data:`wsd.schema.BaselineMethod`: ``kmeans``,
        ``agglomerative`` (cosine, average linkage), ``ward``, ``hdbscan``, ``gmm``, ``spectral``
        (k-nearest-neighbour affinity), or the baselines ``one-sense`` (all occurrences one sense),
        ``one-per-instance`` (each occurrence its own sense; identical vectors share one) and ``random``
        (an int ``k`` of random senses, seeded by ``random_state``).
    k : int or "auto"
        Number of senses, or ``"auto"`` to choose it per word by ``selection`` over ``k_range``.
        ``hdbscan`` needs ``"auto"`` and ``random`` an int; the other baselines ignore it.
    selection : {"silhouette", "calinski_harabasz", "bic", "native"}
        ``silhouette`` (metric: cosine for ``agglomerative``, Euclidean otherwise),
        ``calinski_harabasz``, ``bic`` (``gmm`` only) or ``native`` (``hdbscan`` only: HDBSCAN picks the
        number itself with ``hdbscan_min_cluster_size``). For ``hdbscan`` with silhouette or
        Calinski–Harabasz, HDBSCAN runs over a grid of ``min_cluster_size`` values and the best-scoring
        run whose number of clusters (noise assigned to the nearest cluster) lies in ``k_range`` wins;
        if none does, the native run is used.
    k_range : (int, int)
        Inclusive range of candidate k for ``k="auto"`` (validated only where k is chosen).
    one_sense_below : float or None
        With ``k="auto"``: answer one sense when the best candidate's score (silhouette,
        Calinski–Harabasz, HDBSCAN's relative validity for ``native``) is below this value (None: never
        one sense, unless ``bic`` with ``k_range`` from 1, or HDBSCAN finding a single cluster). See
        :class:`~wsd.senses.selection.SelectK`.
    k_tie_margin : float
        With ``k="auto"``: candidates scoring within this of the best are ties, won by the fewest senses (in
        the criterion's units; 0: the plain best), so float rounding does not decide k
        (:func:`~wsd.senses.selection.within_margin`).
    min_split_uses : int
        With ``k="auto"`` (the number of senses chosen, or cut with ``similarity_cut``): a word with fewer
        occurrences than this keeps one sense, without clustering (0: never). The default recipe sets it to
        :data:`~wsd.senses.recipes.MIN_SPLIT_USES`, measured in
        ``experiments/results/one_sense_floor/one_sense_floor.md``: below it a split agrees with the gold senses no
        better than chance. ``one_sense_reason_`` says why a word kept one sense.
    random_state : int, RandomState or None
        Seeds every random choice (k-means, GMM, spectral, the random baseline).
    center, normalize, pca, whiten : bool, bool, int or None, bool
        Per-word preprocessing, see :class:`~wsd.senses.preprocess.Preprocessor`.
    center_forms : float
        Fraction in [0, 1] of each surface form's offset from the word's mean vector to remove before
        everything else (0: off). Needs the forms: ``fit(X, forms=...)``; ``predict(X, forms=...)`` moves new
        occurrences of known forms the same way. :class:`~wsd.senses.SenseModel` passes the ``form``
        column of the occurrence table.
    min_cluster_size : int or None
        Merge senses with fewer occurrences into the sense with the nearest mean among those at
        least this large (if none is, everything becomes one sense).
    noise : {"nearest", "keep"}
        HDBSCAN noise: ``nearest`` assigns it to the nearest cluster mean; ``keep`` labels it -1.
    temperature : float or "auto"
        Softmax temperature of the centroid rule (see above).
    distance : str
        ``auto``, ``euclidean`` or ``cosine``: the distance of the centroid rule.
    n_init : int
        Restarts of k-means and GMM.
    covariance_type : str
        GMM covariance: ``diag`` (default; ``full`` is rarely estimable in 384 dims from ~100 vectors),
        ``full``, ``tied`` or ``spherical``.
    n_neighbors : int
        Neighbours of the spectral affinity graph (capped at n − 1).
    hdbscan_min_cluster_size, hdbscan_min_samples : int, int or None
        HDBSCAN's own parameters for the native run.
    similarity_cut : float or None
        With ``method="agglomerative"`` and ``k="auto"``: no number of senses is chosen; senses merge while the mean
        cosine similarity between two of them is at least this (in [-1, 1]), as WUG datasets cluster their
        judgment graphs (average linkage approximates their correlation clustering; ``selection``, ``k_range`` and
        ``k_tie_margin`` do not apply, ``min_split_uses`` does). Learn it from judged usage pairs on the vectors the
        clusterer sees (:mod:`wsd.senses.cut`; ``wsd evaluate --dataset wug`` reports it as ``sense_cut``). For
        an encoder tuned on Word-in-Context pairs, such senses follow DWUG EN's change far better than the
        silhouette's k (``experiments/results/wug_cut/wug_cut.md``). None: k as above.
    max_fit_samples : int or None
        Largest number of occurrences fitted exactly (default 5,000); a word with more is fitted on a
        seeded sample of this many and the rest are assigned (see above). ``None``: always fit all of them.

    Attributes
    ----------
    labels_ : ndarray of int64 (n,)
        Sense of each training occurrence (-1: unassigned noise).
    n_senses_ : int
        Number of senses.
    cluster_centers_ : ndarray (n_senses_, m)
        Sense centres in the transformed space (the centroids of the centroid rule; for ``gmm`` and
        ``random`` the means of the training members).
    k_scores_ : dict[int, float]
        Score of every candidate k (NaN where undefined); empty when k was not chosen.
    n_clusters_ : int
        Number of clusters the method itself produced, before noise handling and merging.
    n_reassigned_ : int
        Training occurrences whose sense the assignment rule changed (see above).
    temperature_ : float
        Softmax temperature of the centroid rule.
    distance_ : str
        Distance of the centroid rule.
    assignment_ : str
        ``centroid``, ``gaussian`` or ``random``.
    preprocessor_ : Preprocessor
        The fitted per-word transform.
    n_features_in_ : int
        Width of the training vectors.
    n_fit_samples_ : int
        Occurrences the method was fitted on (all of them, or ``max_fit_samples`` for a larger word).
    one_sense_reason_ : str
        Why the choice of k answered one sense: fewer uses than ``min_split_uses``, or no candidate split
        reaching ``one_sense_below`` (a sentence a reader can check, e.g. ``"5 uses, fewer than the 20 a split
        needs (min_split_uses)"``); empty when the word was split or k was not chosen.

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> X, _ = make_blobs(60, centers=3, n_features=8, random_state=0)
    >>> model = SenseInducer(method="kmeans", k="auto").fit(X)
    >>> model.n_senses_, model.predict_proba(X).shape
    (3, (60, 3))
    """

    _parameter_constraints: ClassVar[dict[str, list]] = {
        "method": [Options(METHODS, "unknown sense induction method {value!r}; choose from {options}")],
        "selection": [Options(SELECTIONS, "unknown selection {value!r}; choose from {options}")],
        "k": [Integer(1), "auto"],
        "random_state": [RandomStateLike()],
        "center": [Boolean()],
        "normalize": [Boolean()],
        "pca": [Integer(1), None],
        "whiten": [Boolean()],
        "min_cluster_size": [Integer(1), None],
        "noise": [Options(NOISES)],
        "temperature": [PositiveReal(), "auto"],
        "distance": [Options(("auto", *DISTANCES))],
        "n_init": [Integer(1)],
        "covariance_type": [Options(COVARIANCE_TYPES)],
        "n_neighbors": [Integer(1)],
        "hdbscan_min_cluster_size": [Integer(2)],
        "hdbscan_min_samples": [Integer(1), None],
        "center_forms": [Fraction()],
        "max_fit_samples": [Integer(2), None],
        "one_sense_below": [Real(), None],
        "k_tie_margin": [NonNegativeReal()],
        "min_split_uses": [Integer(0)],
        "similarity_cut": [Cosine(), None],
    }

    def __init__(
        self,
        *,
        method: ClusteringMethod | BaselineMethod = "kmeans",
        k: int | Literal["auto"] = "auto",
        selection: Selection = "silhouette",
        k_range: tuple[int, int] = (2, 7),
        random_state: int | np.random.RandomState | None = 0,
        center: bool = False,
        normalize: bool = False,
        pca: int | None = None,
        whiten: bool = False,
        min_cluster_size: int | None = None,
        noise: Noise = "nearest",
        temperature: float | Literal["auto"] = "auto",
        distance: str = "auto",
        n_init: int = 5,
        covariance_type: str = "diag",
        n_neighbors: int = 10,
        hdbscan_min_cluster_size: int = 5,
        hdbscan_min_samples: int | None = None,
        center_forms: float = 0.0,
        max_fit_samples: int | None = DEFAULT_MAX_FIT_SAMPLES,
        one_sense_below: float | None = None,
        k_tie_margin: float = 0.0,
        min_split_uses: int = 0,
        similarity_cut: float | None = None,
    ):
        self.method = method
        self.k = k
        self.selection = selection
        self.k_range = k_range
        self.random_state = random_state
        self.center = center
        self.normalize = normalize
        self.pca = pca
        self.whiten = whiten
        self.min_cluster_size = min_cluster_size
        self.noise = noise
        self.temperature = temperature
        self.distance = distance
        self.n_init = n_init
        self.covariance_type = covariance_type
        self.n_neighbors = n_neighbors
        self.hdbscan_min_cluster_size = hdbscan_min_cluster_size
        self.hdbscan_min_samples = hdbscan_min_samples
        self.center_forms = center_forms
        self.max_fit_samples = max_fit_samples
        self.one_sense_below = one_sense_below
        self.k_tie_margin = k_tie_margin
        self.min_split_uses = min_split_uses
        self.similarity_cut = similarity_cut

    @classmethod
    def from_recipe(cls, name: str = "default", **overrides: Any) -> SenseInducer:
        """The inducer ``wsd cluster``, ``wsd run`` and ``wsd evaluate`` build for a named recipe.

        ``SenseInducer()`` alone is plain k-means on the raw vectors; this is the way to the command line's
        senses from Python: the recipe's parameters (:mod:`wsd.senses.recipes`), the inducer's defaults for the
        rest and the command line's seed (``senses.seed``, 0), as :func:`make_inducer` builds
        them. Fitted on the vectors of a run made with the same recipe's embedding (:func:`wsd.embed_corpus`'s
        default, ``wsd embed``'s), it gives the same senses as ``wsd cluster``.

        Parameters
        ----------
        name : {"default", "textbook", "sense-minilm", "sense-mpnet"}
            The recipe.
        **overrides
            Parameters that replace the recipe's (``k=3``, ``random_state=1``), as ``--k 3 --seed 1`` would.

        Returns
        -------
        SenseInducer
            The recipe's inducer, unfitted, its parameters checked.

        Raises
        ------
        ConfigError
            For an unknown recipe, parameter or value.

        Examples
        --------
        >>> inducer = SenseInducer.from_recipe()
        >>> inducer.method, inducer.center_forms, inducer.min_split_uses
        ('ward', 0.5, 8)
        >>> SenseInducer.from_recipe("textbook", k=3).get_params()["k"]
        3
        """
        from wsd.options import SenseOptions
        from wsd.senses.recipes import recipe

        inducer: SenseInducer = make_inducer(recipe(name) | {"random_state": SenseOptions.seed} | overrides)
        return inducer

    @classmethod
    def from_options(cls, options: SenseOptions) -> SenseInducer:
        """The inducer of a :class:`~wsd.options.SenseOptions`: its recipe, the parameters it sets, its seed.

        What ``wsd cluster`` builds from its ``[senses]`` settings: the parameters ``options`` leaves unset
        (None) come from ``options.recipe`` (:mod:`wsd.senses.recipes`), else the inducer's defaults, and
        ``random_state`` is ``options.seed``.

        Parameters
        ----------
        options : SenseOptions
            The sense options.

        Returns
        -------
        SenseInducer
            Unfitted, its parameters checked (:func:`make_inducer`).

        Raises
        ------
        ConfigError
            For an unknown recipe or a bad value, found now rather than when fitting.

        Examples
        --------
        >>> from wsd.options import SenseOptions
        >>> inducer = SenseInducer.from_options(SenseOptions(k=3, seed=1))
        >>> inducer.method, inducer.k, inducer.random_state
        ('ward', 3, 1)
        """
        from wsd.senses.recipes import recipe

        params = recipe(options.recipe) | options.params(given_only=True) | {"random_state": options.seed}
        inducer: SenseInducer = make_inducer(params)
        return inducer

    # ------------------------------------------------------------------ validation

    @property
    def selects_k(self) -> bool:
        """Whether ``fit`` chooses the number of senses (``k="auto"`` with a clustering method).

        Returns
        -------
        bool
        """
        return self.k == "auto" and self.method in CLUSTERING_METHODS and self.similarity_cut is None

    def _validate_params(self) -> None:
        """Check each parameter against ``_parameter_constraints``, then the combinations (ConfigError)."""
        validate_params(self)
        if self.similarity_cut is not None:
            if self.method != "agglomerative":
                raise ConfigError(
                    f"similarity_cut (--similarity-cut) cuts average-linkage clusters on cosine: it needs "
                    f"method='agglomerative', not {self.method!r}"
                )
            if self.k != "auto":
                raise ConfigError(
                    f"similarity_cut (--similarity-cut) decides the number of senses itself: drop k={self.k!r} "
                    "(use k='auto')"
                )
            if self.one_sense_below is not None:
                raise ConfigError(
                    "one_sense_below (--one-sense-below) thresholds the choice of k, which similarity_cut "
                    "(--similarity-cut) replaces: drop one of them"
                )
            return
        if self.method == "hdbscan" and self.k != "auto":
            raise ConfigError("method='hdbscan' chooses the number of senses itself; use k='auto'")
        if self.method == "random" and self.k == "auto":
            raise ConfigError("method='random' needs an int k (the number of random senses)")
        if not self.selects_k:
            if self.one_sense_below is not None:  # a threshold of the choice of k: with a fixed k it would do nothing
                raise ConfigError(
                    f"one_sense_below (--one-sense-below) applies when the number of senses is chosen (k='auto'), "
                    f"not with k={self.k!r} and method={self.method!r}: drop it, or use --k auto"
                )
            return
        if not (self.method == "hdbscan" and self.selection == "native"):
            check_k_range(self.k_range, self.selection)
        check_one_sense(self.one_sense_below, self.selection)
        if self.selection == "bic" and self.method != "gmm":
            raise ConfigError(f"selection='bic' needs a mixture model (method='gmm'), not method={self.method!r}")
        if self.selection == "native" and self.method != "hdbscan":
            raise ConfigError(f"selection='native' is HDBSCAN's own choice (method='hdbscan'), not {self.method!r}")

    def _check_X(self, X: Any, fitting: bool) -> np.ndarray:
        """A dense, finite float64 matrix (scikit-learn's checks, raised as InputError)."""
        try:
            X = check_array(X, dtype=np.float64, ensure_min_samples=1 if fitting else 0)
        except ValueError as error:
            raise InputError(f"occurrence vectors: {error}") from None
        if not fitting and X.shape[1] != self.n_features_in_:
            raise InputError(
                f"X has {X.shape[1]} features, but {type(self).__name__} is expecting "
                f"{self.n_features_in_} features as input (the vector dims the senses were induced from)"
            )
        return X

    # ------------------------------------------------------------------ fitting

    def fit(self, X: Any, y: Any = None, forms: Any = None) -> SenseInducer:
        """Induce senses from occurrence vectors.

        Parameters
        ----------
        X : array-like of shape (n_occurrences, dim)
            One word's occurrence vectors.
        y : None
            Ignored.
        forms : sequence of str or None
            The surface form of each occurrence; needed when ``center_forms`` is set.

        Returns
        -------
        SenseInducer
            This inducer, fitted.
        """
        self._validate_params()
        if uses_sample(X, self.max_fit_samples):
            return fit_on_sample(self, X, forms)
        return self._fit_rows(self._check_X(X, fitting=True), forms)

    def _fit_rows(self, X: np.ndarray, forms: Any) -> SenseInducer:
        """Fit on all rows of the checked float64 matrix ``X`` (the exact fit)."""
        self.n_features_in_ = int(X.shape[1])
        self.n_fit_samples_ = int(X.shape[0])
        seed = int(check_random_state(self.random_state).randint(np.iinfo(np.int32).max))
        self.preprocessor_ = self.make_preprocessor().fit(X, forms=forms)
        Xt = self.preprocessor_.transform(X, forms)
        self.distance_ = METHOD_METRIC[self.method] if self.distance == "auto" else self.distance
        self.k_scores_: dict[int, float] = {}
        self.one_sense_reason_ = ""
        if self.method == "random":
            self._fit_random(X, Xt, seed)
            return self
        clustering = self._cluster(Xt, seed)
        raw = np.asarray(clustering.labels, dtype=np.int64)
        self.n_clusters_ = len(np.unique(raw[raw >= 0]))
        noise = raw < 0
        keep_noise = self.noise == "keep" and bool(noise.any()) and bool((~noise).any())
        if clustering.mixture is not None:
            groups = raw  # mixture component indices; components that won no occurrence get merged/dropped
            n_groups = clustering.mixture.n_components
        else:
            groups = compact_labels(raw) if keep_noise else assign_noise(Xt, raw, self.distance_)
            n_groups = int(groups.max()) + 1
        merged = (
            merge_small_senses(Xt, groups, self.min_cluster_size, self.distance_)
            if self.min_cluster_size
            else np.arange(n_groups)
        )
        group_sense = compact_labels(merged)  # group id -> sense id before the final renumbering
        sense_labels = np.where(groups >= 0, group_sense[np.maximum(groups, 0)], UNASSIGNED)
        n_senses = int(group_sense.max()) + 1
        if clustering.mixture is not None:
            mixture = clustering.mixture
            self.assignment_ = "gaussian"
            self.mixture_weights_ = np.asarray(mixture.weights_, dtype=np.float64)
            self.mixture_means_ = np.asarray(mixture.means_, dtype=np.float64)
            self.mixture_precisions_cholesky_ = np.asarray(mixture.precisions_cholesky_, dtype=np.float64)
            self.component_senses_ = group_sense.astype(np.int64)
        else:
            self.assignment_ = "centroid"
            self.cluster_centers_ = cluster_means(Xt, sense_labels, n_senses)
        self.temperature_ = self._auto_temperature(Xt, sense_labels, n_senses)
        self._finalise(Xt, sense_labels, keep_noise_mask=noise if keep_noise else None)
        return self

    def make_preprocessor(self) -> Preprocessor:
        """The (unfitted) per-word transform these parameters describe.

        Returns
        -------
        Preprocessor
        """
        return Preprocessor(
            center=self.center,
            normalize=self.normalize,
            pca=self.pca,
            whiten=self.whiten,
            center_forms=self.center_forms,
        )

    def make_clusterer(self, random_state: Any = None) -> Any:
        """The (unfitted) clusterer of ``method``: an estimator from the registry, or a ``DummyClusterer``.

        Parameters
        ----------
        random_state : int, RandomState or None
            Seed for the clusterer (``fit`` passes one drawn from ``self.random_state``).

        Returns
        -------
        estimator
            A clusterer with ``fit`` and ``labels_``; the fixed-k ones get ``n_clusters=k`` (or, with
            ``k="auto"``, the number :class:`~wsd.senses.selection.SelectK` chooses).
        """
        if self.method not in CLUSTERERS:
            n_clusters = int(self.k) if self.k != "auto" else 1
            return DummyClusterer(strategy=self.method, n_clusters=n_clusters, random_state=random_state)
        options = {
            "n_init": self.n_init,
            "random_state": random_state,
            "covariance_type": self.covariance_type,
            "n_neighbors": self.n_neighbors,
            "min_cluster_size": self.hdbscan_min_cluster_size,
            "min_samples": self.hdbscan_min_samples,
        }
        if self.k != "auto":
            options["n_clusters"] = int(self.k)
        if self.similarity_cut is not None:
            options["similarity_cut"] = float(self.similarity_cut)
        cls = CLUSTERERS[self.method]
        accepted = cls().get_params(deep=False)
        return cls(**{name: value for name, value in options.items() if name in accepted})

    def _cluster(self, Xt: np.ndarray, seed: int) -> Clustering:
        """Raw labels from the method (with k chosen when asked); records ``k_scores_``."""
        n = len(Xt)
        if (self.selects_k or self.similarity_cut is not None) and n < self.min_split_uses:
            self.one_sense_reason_ = few_uses_reason(n, self.min_split_uses)
            return Clustering.of(DummyClusterer(strategy="one-sense").fit(Xt))
        if self.method == "one-sense" or n == 1:
            return Clustering.of(DummyClusterer(strategy="one-sense").fit(Xt))
        if self.method == "one-per-instance":
            return Clustering.of(DummyClusterer(strategy="one-per-instance").fit(Xt))
        clusterer = self.make_clusterer(seed)
        if self.similarity_cut is not None:
            return Clustering.of(clusterer.fit(Xt))
        if self.selects_k:
            selector = SelectK(
                clusterer,
                selection=self.selection,
                k_range=self.k_range,
                metric=METHOD_METRIC[self.method],
                one_sense_below=self.one_sense_below,
                tie_margin=self.k_tie_margin,
            )
            self.k_scores_ = selector.fit(Xt).k_scores_
            if selector.n_clusters_ == 1 and self.one_sense_below is not None:
                self.one_sense_reason_ = weak_split_reason(self.selection, self.k_scores_, self.one_sense_below)
            return Clustering.of(selector.best_estimator_)
        return Clustering.of(fit_k(clusterer, Xt, min(int(self.k), n)))

    def _fit_random(self, X: np.ndarray, Xt: np.ndarray, seed: int) -> None:
        """The ``random`` baseline: senses hashed from the raw vectors, centres in the transformed space."""
        dummy = self.make_clusterer(seed).fit(X)
        self.assignment_ = "random"
        self.random_seed_ = dummy.random_seed_
        self.bucket_senses_ = dummy.bucket_senses_
        self.n_clusters_ = dummy.n_clusters_
        self.temperature_ = 1.0
        self.labels_ = dummy.labels_
        self.n_senses_ = dummy.n_clusters_
        self.cluster_centers_ = cluster_means(Xt, self.labels_, self.n_senses_)
        self.n_reassigned_ = 0

    def _auto_temperature(self, Xt: np.ndarray, sense_labels: np.ndarray, n_senses: int) -> float:
        if self.temperature != "auto":
            return float(self.temperature)
        centers = cluster_means(Xt, sense_labels, n_senses)
        distances = centroid_distances(Xt, centers, self.distance_)
        assigned = sense_labels >= 0
        own = distances[np.flatnonzero(assigned), sense_labels[assigned]]
        for candidate in (own.mean() if len(own) else 0.0, distances.mean()):
            if candidate > EPSILON:
                return float(candidate)
        return 1.0

    def _finalise(self, Xt: np.ndarray, sense_labels: np.ndarray, keep_noise_mask: np.ndarray | None) -> None:
        """Label each training vector by the assignment rule, drop empty senses, number senses by size."""
        origin = sense_labels.copy()  # each occurrence's sense before this step, renumbered alongside
        for _ in range(_MAX_ROUNDS):
            labels = self._hard(self._proba_transformed(Xt), keep_noise_mask)
            renumbering = size_renumbering(labels, self._n_rule_senses())
            if renumbering is None:
                break
            new_id, n_kept = renumbering
            self._renumber(new_id, n_kept)
            origin = np.where(origin >= 0, new_id[np.maximum(origin, 0)], UNASSIGNED)
            origin[origin >= n_kept] = UNASSIGNED
        self.labels_ = self._hard(self._proba_transformed(Xt), keep_noise_mask)
        self.n_senses_ = self._n_rule_senses()
        self.n_reassigned_ = int(((self.labels_ != origin) & (self.labels_ >= 0)).sum())
        if self.assignment_ != "centroid":
            self.cluster_centers_ = cluster_means(Xt, self.labels_, self.n_senses_)

    @staticmethod
    def _hard(proba: np.ndarray, keep_noise_mask: np.ndarray | None) -> np.ndarray:
        labels = np.argmax(proba, axis=1).astype(np.int64)
        if keep_noise_mask is not None:
            labels[keep_noise_mask] = UNASSIGNED
        return labels

    def _n_rule_senses(self) -> int:
        if self.assignment_ == "gaussian":
            return int(self.component_senses_.max()) + 1
        if self.assignment_ == "random":
            return int(self.bucket_senses_.max()) + 1
        return int(self.cluster_centers_.shape[0])

    def _renumber(self, new_id: np.ndarray, n_kept: int) -> None:
        """Apply ``new_id[old] = new`` to the assignment rule, dropping senses with ids ≥ ``n_kept``."""
        if self.assignment_ == "centroid":
            centers = np.empty((n_kept, self.cluster_centers_.shape[1]))
            kept = new_id < n_kept
            centers[new_id[kept]] = self.cluster_centers_[kept]
            self.cluster_centers_ = centers
        elif self.assignment_ == "gaussian":
            senses = new_id[self.component_senses_]
            kept = senses < n_kept
            weights = self.mixture_weights_[kept]
            self.mixture_weights_ = weights / weights.sum()
            self.mixture_means_ = self.mixture_means_[kept]
            if self.covariance_type != "tied":
                self.mixture_precisions_cholesky_ = self.mixture_precisions_cholesky_[kept]
            self.component_senses_ = senses[kept]

    # ------------------------------------------------------------------ prediction

    def _proba_transformed(self, Xt: np.ndarray, X: np.ndarray | None = None) -> np.ndarray:
        if self.assignment_ == "gaussian":
            posteriors = gaussian_posteriors(
                Xt,
                self.mixture_weights_,
                self.mixture_means_,
                self.mixture_precisions_cholesky_,
                self.covariance_type,
            )
            return merge_columns(posteriors, self.component_senses_, int(self.component_senses_.max()) + 1)
        if self.assignment_ == "random":
            assert X is not None, "the random assignment hashes the original vectors"
            proba = np.zeros((len(X), int(self.bucket_senses_.max()) + 1))
            proba[np.arange(len(X)), random_senses(X, self.random_seed_, self.bucket_senses_)] = 1.0
            return proba
        return distance_softmax(centroid_distances(Xt, self.cluster_centers_, self.distance_), self.temperature_)

    def predict_proba(self, X: Any, forms: Any = None) -> np.ndarray:
        """Soft sense memberships of occurrences; rows sum to 1.

        ``gmm``: native posteriors; ``random``: one-hot; otherwise ``softmax(-d / temperature_)`` over
        the distances ``d`` (``distance_``) to ``cluster_centers_`` in the transformed space.

        Parameters
        ----------
        X : array-like of shape (n_occurrences, dim)
            Occurrence vectors of the training width.
        forms : sequence of str or None
            Their surface forms (matter only with ``center_forms``; unknown forms are not moved).

        Returns
        -------
        ndarray of shape (n_occurrences, n_senses_)
        """
        check_is_fitted(self, "labels_")
        if uses_sample(X, CHUNKED_ABOVE):
            return predict_proba_chunked(self, X, forms)
        X = self._check_X(X, fitting=False)
        if len(X) == 0:
            return np.zeros((0, self.n_senses_))
        return self._proba_transformed(self.preprocessor_.transform(X, forms), X)

    def predict(self, X: Any, forms: Any = None) -> np.ndarray:
        """Assign occurrences to the induced senses: ``argmax(predict_proba(X))`` (never -1).

        For the training vectors this reproduces ``labels_`` (noise kept as -1 aside).

        Parameters
        ----------
        X : array-like of shape (n_occurrences, dim)
            Occurrence vectors of the training width.
        forms : sequence of str or None
            Their surface forms (see :meth:`predict_proba`).

        Returns
        -------
        ndarray of int64, shape (n_occurrences,)
        """
        return np.argmax(self.predict_proba(X, forms), axis=1).astype(np.int64)


def few_uses_reason(n: int, min_split_uses: int) -> str:
    """Why a word with few uses kept one sense, in words a reader can check.

    Parameters
    ----------
    n : int
        The word's uses.
    min_split_uses : int
        The fewest uses a split needs.

    Returns
    -------
    str

    Examples
    --------
    >>> few_uses_reason(5, 20)
    '5 uses, fewer than the 20 a split needs (min_split_uses)'
    """
    uses = "use" if n == 1 else "uses"
    return f"{n} {uses}, fewer than the {min_split_uses} a split needs ({MIN_SPLIT_USES_NAME})"


def weak_split_reason(selection: str, k_scores: dict[int, float], threshold: float) -> str:
    """Why a word whose best split scored below ``one_sense_below`` kept one sense.

    Parameters
    ----------
    selection : str
        The criterion that scored the splits.
    k_scores : dict
        Score of every candidate k (``1``: the threshold, as :class:`~wsd.senses.selection.SelectK` records it).
    threshold : float
        ``one_sense_below``.

    Returns
    -------
    str

    Examples
    --------
    >>> weak_split_reason("silhouette", {1: 0.02, 2: 0.011, 3: 0.009}, 0.02)
    'weak split: the best silhouette, 0.011 (k=2), is below 0.02 (one_sense_below)'
    """
    scored = {k: v for k, v in k_scores.items() if k != 1 and not np.isnan(v)}
    if not scored:
        return f"weak split: no split could be scored against {threshold:g} (one_sense_below)"
    best = max(scored, key=lambda k: scored[k])
    return f"weak split: the best {selection}, {scored[best]:.3g} (k={best}), is below {threshold:g} (one_sense_below)"


def make_inducer(params: dict[str, Any]) -> SenseInducer:
    """A :class:`~wsd.senses.SenseInducer` from parameters, validated now (bad values fail before any work).

    Parameters
    ----------
    params : dict
        :class:`~wsd.senses.SenseInducer` keywords.

    Returns
    -------
    SenseInducer
        Unfitted, its parameters checked.

    Raises
    ------
    ConfigError
        For an unknown parameter or a bad value.

    Examples
    --------
    >>> make_inducer({"method": "ward", "k": 3}).method
    'ward'
    """
    try:
        inducer = SenseInducer(**params)
    except TypeError as exc:
        raise ConfigError(f"unknown sense-induction parameter: {exc}") from None
    inducer._validate_params()
    return inducer
