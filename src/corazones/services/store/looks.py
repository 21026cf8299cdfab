"""What a name looks like: the key that keeps two accounts from looking the same.

Accounts are unique by their *look* (``players.look``, revision 0005), not by
their letters: ``Ana`` and ``Аna`` (a Cyrillic ``А``) would otherwise be two
accounts that nobody can tell apart on the leaderboard or at a table.  The
look folds what a reader cannot see: compatibility forms (full-width
``Ａｎａ``), accents (``Àna``), letters of other scripts drawn like Latin ones
(:data:`LOOKALIKES`), case, and runs of blanks.

The server refuses names that could pass for a bot with the same folding
(:func:`skeleton`), so both checks read a name the same way.  A change to the
folding changes the stored keys: it needs a revision that recomputes them, as
0005 computed them first.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from corazones.core.text import BLANKS

#: Letters drawn like a Latin letter in most fonts (NFKC leaves them): Cyrillic, Greek, Latin small
#: capitals and dotless letters.  Upper and lower case apart: Greek ``Η`` looks like H, ``η`` like n.
LOOKALIKES: Final = str.maketrans(
    {
        **dict(zip("АВСЕНІЈКМОРЅТХУҮԚԜҺӀ", "ABCEHIJKMOPSTXYYQWHI", strict=True)),
        **dict(zip("авсеіјкмнопрѕтуүхһԁԛԝӏ", "abceijkmhonpstyyxhdqwl", strict=True)),
        **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧϹ", "ABEZHIKMNOPTYXC", strict=True)),
        **dict(zip("αβεηικνορτυχϲϳ", "abenikvoptuxcj", strict=True)),
        **dict(zip("ᴀʙᴄᴅᴇɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢıȷɑɡɩ", "abcdeghijklmnoprstuvwyzijagi", strict=True)),
    }
)

#: The longest key folded from a name that is stored (``players.look``, and ``players.login`` on
#: PostgreSQL, which enforces lengths): a 40-character name folds to at most three characters each
#: (``ß`` is ``ss``).  A longer look is clipped, which only errs towards calling two names alike.
FOLDED_CHARS: Final = 120


def skeleton(name: str) -> str:
    """``name`` as it looks, in Latin letters: accents dropped (``bót``), look-alike letters of other
    scripts read as the Latin letter they are drawn like (Cyrillic ``Вот``).  Case is kept (Greek ``Η``
    and ``η`` look like different Latin letters); fold it after."""
    bare = "".join(c for c in unicodedata.normalize("NFD", name) if not unicodedata.combining(c))
    return bare.translate(LOOKALIKES)


def look(name: str) -> str:
    """The key two account names share when they look the same: :func:`skeleton` of the name's
    compatibility form, case-folded (and read again: a letter's small form may be a look-alike, or carry
    an accent), its blanks (spaces, Hangul fillers) made single spaces."""
    folded = skeleton(skeleton(unicodedata.normalize("NFKC", name)).casefold())
    spaced = "".join(" " if c in BLANKS else c for c in folded)
    return " ".join(spaced.split())[:FOLDED_CHARS]
