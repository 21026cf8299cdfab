"""The client a per-address limit counts: one function, read by every count of the server.

An IPv4 client has one address, but an IPv6 client is usually given a whole
/64 network (one per home, phone or server: SLAAC and privacy extensions pick
new addresses in it all the time), so a client that switches addresses within
its /64 would escape every cap counted per address.  The caps therefore count
an IPv6 client by its /64, an IPv4 client by its address, and an IPv4 address
written as IPv6 (``::ffff:192.0.2.7``, as a dual-stack socket reports it) as
the IPv4 address it is.  Whatever is not an IP address (a Unix socket, a test
client's name) counts as itself.

Used by the connection guard (connections per address), the admission of
WebSockets and pad followers (``--ws-per-address``), the HTTP write budget
(``--write-limit``, for requests without a token), the cap of tables created
per address and the budget of missed events resent per address.
"""

from __future__ import annotations

import functools
import ipaddress

#: The IPv6 prefix one client is counted by: the usual allocation to one subscriber's link.
IPV6_PREFIX = 64


@functools.lru_cache(maxsize=4096)
def client_key(address: str) -> str:
    """The client ``address`` counts as: ``203.0.113.9`` itself, ``2001:db8:1:2::/64`` for any address
    in that /64 (a zone, ``%eth0``, dropped), ``192.0.2.7`` for ``::ffff:192.0.2.7``; anything that is
    not an IP address unchanged."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv4Address):
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    bare = ipaddress.IPv6Address(int(ip))  # without its zone: the network is the same on every link
    return str(ipaddress.IPv6Network((bare, IPV6_PREFIX), strict=False))
