"""The full-screen score pad (``corazones pad`` on a terminal): pick the game and names, then the sheet.

Hands are typed in the same line syntax as the pad's line mode
(:func:`corazones.core.pad.grammar.parse_hand`), so a player learns one way of
writing a hand; every number comes from :class:`corazones.core.pad.Pad`.
"""
