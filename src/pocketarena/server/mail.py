"""Email over SMTP (``aiosmtplib``): where the server is (``POCKETARENA_SMTP_URL``), and the
messages it sends (an address's verification, a notification with its one-click
unsubscribe). Sent by ``server.delivery`` from the queue, never inside a move."""

from __future__ import annotations

import email.policy
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from urllib.parse import unquote, urlsplit

import aiosmtplib

# Header lines up to RFC 5322's 998 characters: a long link (List-Unsubscribe) stays one
# plain line instead of being cut into encoded words that mail programs do not read as a URL.
POLICY = email.policy.SMTP.clone(max_line_length=998)
TIMEOUT_S = 20.0  # a mail server slower than this: the message is given up (and logged)


@dataclass(frozen=True)
class SmtpServer:
    hostname: str
    port: int
    username: str | None
    password: str | None
    use_tls: bool  # TLS from the first byte (smtps://); otherwise STARTTLS when offered


def parse_smtp_url(url: str) -> SmtpServer:
    """``smtp://[user:password@]host[:port]`` or ``smtps://…``; a clear ValueError else."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ValueError(
            f"POCKETARENA_SMTP_URL: {url!r} is not smtp://[user:password@]host[:port] "
            "(or smtps:// for TLS from the start)"
        )
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"POCKETARENA_SMTP_URL: the port of {url!r} is not a number") from None
    tls = parts.scheme == "smtps"
    return SmtpServer(
        hostname=parts.hostname,
        port=port or (465 if tls else 25),
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
        use_tls=tls,
    )


class Mailer:
    """Sends messages to one SMTP server."""

    def __init__(self, url: str, sender: str) -> None:
        self.server = parse_smtp_url(url)
        self.sender = sender

    async def send(self, message: EmailMessage) -> None:
        if "From" not in message:
            message["From"] = self.sender
        server = self.server
        await aiosmtplib.send(
            message,
            hostname=server.hostname,
            port=server.port,
            username=server.username,
            password=server.password,
            use_tls=server.use_tls,
            start_tls=None if not server.use_tls else False,  # STARTTLS when offered
            timeout=TIMEOUT_S,
        )


def compose(
    to: str,
    subject: str,
    text: str,
    language: str,
    unsubscribe: str | None = None,
) -> EmailMessage:
    """A plain-text message; with ``unsubscribe`` (an https or http URL answering a POST),
    the ``List-Unsubscribe`` headers of a one-click unsubscribe (RFC 8058)."""
    message = EmailMessage(policy=POLICY)
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain="pocketarena")
    message["Auto-Submitted"] = "auto-generated"
    if unsubscribe:
        message["List-Unsubscribe"] = f"<{unsubscribe}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(text)
    message["Content-Language"] = language.replace("_", "-")  # after: set_content clears it
    return message
