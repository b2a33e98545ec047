"""Small hand-written English and Russian stopword lists for describing senses by their context words.

The English list includes the fragments the letter regex leaves of contractions (``don`` of ``don't``).
"""

from __future__ import annotations

_ENGLISH = """
a about above after again against all also am an and any are as at be because been before being
below between both but by can could did do does doing down during each either else even ever every
few for from further had has have having he her here hers herself him himself his how however i if
in into is it its itself just least less let like made make many may me might more most much must my
myself neither never no nor not now of off often on once one only or other others otherwise our ours
ourselves out over own per perhaps quite rather really said same say says she should since so some
such than that the their theirs them themselves then there these they this those though through thus
to too two under until up upon us very was we well were what whatever when where whether which while
who whom whose why will with within without would yet you your yours yourself yourselves get got
gets getting go goes going gone went come came take took seen see way ways thing things lot lots
still back around across along another else something anything nothing everything someone anyone
everyone
don doesn didn isn wasn aren weren hasn haven hadn won wouldn couldn shouldn mustn ain let ll ve
yeah okay uh um
"""

_RUSSIAN = """
а без более бы был была были было быть в вам вас весь во вот все всего всех вы где да даже для до
его ее её если есть еще ещё же за здесь и из или им их к как какая какой когда кто ли либо мне может
мы на над надо наш не него нее неё нет ни них но ну о об однако он она они оно от очень по под при с
со так также такой там те тем то того тоже той только том ты у уже хотя чего чей чем что чтобы чье
чья эта эти это этого этой этом этот я себя себе свой своя свое своё свои сам сама само сами уж ведь
вон вдруг лишь разве между через после перед потому поэтому тут тогда теперь всё всегда никогда
нибудь будет будут буду был была были было будто который которая которое которые которых которым
которой которого мой моя мое моё мои твой твоя твои ваш ваша ваши наша наши чтоб кроме около среди
"""
ENGLISH_STOPWORDS: frozenset[str] = frozenset(_ENGLISH.split())
RUSSIAN_STOPWORDS: frozenset[str] = frozenset(_RUSSIAN.split())
STOPWORDS: frozenset[str] = ENGLISH_STOPWORDS | RUSSIAN_STOPWORDS
