"""The full-screen terminal game (Textual): start screen, table, dialogs, score sheet, replay viewer.

The :class:`~corazones.tui.controller.Controller` owns the :class:`~corazones.core.game.Game`;
every widget is drawn from ``game.observation(seat)`` of the human seat (plus the
public trick records the controller keeps from those observations), so the app
can only show what that seat may know.
"""

from __future__ import annotations
