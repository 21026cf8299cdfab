"""Why the system refused a file or an address, in the user's language.

An ``OSError`` carries the system's reason as text (``strerror``), in the C
library's language, which is English on most machines whatever ``--lang``
says; put inside a translated refusal it reads "no se puede escribir en
'x': Permission denied".  The reason is keyed by ``errno``, which is the same
everywhere, so the common ones are msgids of the one catalog here, marked
with ``N_`` and translated like every other text; an errno not in the table
keeps the system's own words.

:func:`os_reason` gives the reason as a :class:`~corazones.core.errors.Message`
(or the system's text): as a parameter of a refusal it is translated by
:func:`corazones.i18n.error_text` with the refusal, and sent to the web app
as a nested template by :func:`corazones.i18n.error_json`.
"""

from __future__ import annotations

import errno
from collections.abc import Callable

from corazones.core.errors import Message
from corazones.i18n import N_, error_text

#: errno -> the reason in the C library's English (glibc's wording), as a msgid.
REASONS: dict[int, str] = {
    errno.EACCES: N_("Permission denied"),
    errno.EPERM: N_("Operation not permitted"),
    errno.ENOENT: N_("No such file or directory"),
    errno.ENOTDIR: N_("Not a directory"),
    errno.EISDIR: N_("Is a directory"),
    errno.EEXIST: N_("File exists"),
    errno.EROFS: N_("Read-only file system"),
    errno.ENOSPC: N_("No space left on device"),
    errno.EDQUOT: N_("Disk quota exceeded"),
    errno.EFBIG: N_("File too large"),
    errno.ENAMETOOLONG: N_("File name too long"),
    errno.ELOOP: N_("Too many levels of symbolic links"),
    errno.EMFILE: N_("Too many open files"),
    errno.EBUSY: N_("Device or resource busy"),
    errno.EIO: N_("Input/output error"),
    errno.ENXIO: N_("nothing is reading it (a pipe without a reader, or a device that is not there)"),
    errno.EADDRINUSE: N_("Address already in use"),
    errno.EADDRNOTAVAIL: N_("Cannot assign requested address"),
}


def os_reason(error: OSError) -> Message | str:
    """Why ``error`` happened, for a message: a catalog text for a common errno, else the system's words."""
    template = REASONS.get(error.errno) if error.errno is not None else None
    if template is not None:
        return Message(template)
    return error.strerror or str(error)


def os_reason_text(gettext: Callable[[str], str], error: OSError) -> str:
    """:func:`os_reason` in the language of ``gettext``, for a message filled by hand (``.format(error=...)``)."""
    return error_text(gettext, os_reason(error))
