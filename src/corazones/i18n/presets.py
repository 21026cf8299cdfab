"""Each preset's words for people, marked for the one catalog: the start screen and ``corazones rules`` say them.

The core describes each preset in English (``Rules.description``); these are
the words the faces translate.  They sit here, below every face, because
more than one face speaks them (the terminal game's start screen, the command
line's preset list).
"""

from __future__ import annotations

from corazones.i18n import N_

#: The words for each preset (the core's English descriptions, when a preset is not listed here).
PRESET_WORDS: dict[str, str] = {
    "standard": N_("Black Lady, the modern Hearts: Q♠ 13, hearts 1, pass left/right/across/hold, to 100"),
    "black_lady": N_("the same as standard (1909 'discard hearts')"),
    "kitty": N_("no cards removed; the leftovers form a kitty (12 each with four)"),
    "quick": N_("a single hand decides the game (ties play on)"),
    "hearts_1887": N_("the original (Hoyle 1887): hearts only, no passing, eldest leads, chips"),
    "arnold_2011": N_("plain Hearts (Arnold 2011): hearts only, no passing, eldest leads, to 80"),
    "spot_hearts": N_("hearts cost their spot value: A 14, K 13, Q 12, J 11, 10..2"),
    "eagle_hearts": N_("hearts A 5, K 4, Q 3, J 2, the others 1"),
    "black_jack": N_("J♠ (10) instead of Q♠"),
    "black_maria": N_("British: Q♠ 13, A♠ 10, K♠ 7, pass right, usually 3 players"),
    "omnibus": N_("standard plus J♦ worth -10 to whoever takes it"),
    "partnership": N_("fixed partnerships in alternate seats; team scores"),
    "auction_hearts": N_("Foster 1897: bid chips to name the penalty suit; pool settlement"),
    "cancellation_hearts": N_("Culbertson 1950: two decks, 5-11 players, identical cards cancel"),
    "four_jacks": N_("Cuatro Jotas: every jack 1, J♠ 2; no hearts penalty"),
    "chasse_coeur": N_("Chasse-Cœur: queens 13, hearts 1; must discard a heart, else a queen"),
}


#: Each preset by the title the web app gives it (``presetTitle`` in ``server/static/js/options.js``), so the
#: terminal's start screen, table and replay, and the line score pad, name a game as the browser does.
PRESET_TITLES = {
    "standard": N_("Standard Hearts"),
    "black_lady": N_("Black Lady"),
    "kitty": N_("Hearts with a kitty"),
    "quick": N_("Quick: one hand"),
    "hearts_1887": N_("Hearts of 1887 (chips)"),
    "arnold_2011": N_("Plain Hearts (Arnold)"),
    "spot_hearts": N_("Spot Hearts"),
    "eagle_hearts": N_("Eagle Hearts"),
    "black_jack": N_("Black Jack"),
    "black_maria": N_("Black Maria"),
    "omnibus": N_("Omnibus Hearts"),
    "partnership": N_("Partnership Hearts"),
    "auction_hearts": N_("Auction Hearts"),
    "cancellation_hearts": N_("Cancellation Hearts (two decks)"),
    "four_jacks": N_("Four Jacks"),
    "chasse_coeur": N_("Chasse-Cœur"),
}
