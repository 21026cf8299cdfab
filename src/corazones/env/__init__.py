"""Learning environments: PettingZoo (``hearts_v0``), Gymnasium (``corazones/Hearts-v0``), batches of games.

Install with the ``env`` extra (``pip install 'corazones[env]'``).  The
environments are a face like the command line: they see each seat's
observation and legal actions, nothing else.  See ``docs/env.md``.
"""

from corazones.env.single import ENV_ID, HeartsEnv, register

register()

__all__ = ["ENV_ID", "HeartsEnv", "register"]
