"""Notifications by email and Web Push: the accounts' addresses (verified by a signed link)
and browsers' subscriptions, and the sender that empties the queue ``server.notices`` fills.

Every process of a cluster (servers and ``pocketarena worker``) runs the sender now and then.
A batch is claimed in one transaction (rows locked and skipped by the others, the recipients'
rows locked so that two processes never both decide to write about one game in the same
hour), then sent outside it: a slow mail server or push service delays other notifications,
never a move. Each notification is sent at most once; one that fails is logged.

Email: only to a verified address, at most one per game per hour, in the recipient's
language and time zone, with a one-click unsubscribe link for its kind (RFC 8058).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import quote

from email_validator import EmailNotValidError, validate_email
from sqlalchemy import delete, select

from pocketarena import i18n
from pocketarena.i18n import _

from . import notices
from .core.security import read_token, signed_token
from .core.waiting import cancel_lost
from .live.session import GameError
from .mail import Mailer, compose
from .models import NotificationRow, Player, PushSubscriptionRow
from .push import Pusher
from .store import Store, aware

log = logging.getLogger(__name__)
BATCH = 50  # notifications claimed at once
MAIL_GAP = timedelta(hours=1)  # at most one email per game in this long
VERIFY_FOR = timedelta(days=2)  # a verification link works this long
VERIFY = "email-verify"  # token purposes
UNSUBSCRIBE = "email-unsubscribe"
MAX_SUBSCRIPTIONS = 10  # browsers per account (the oldest is dropped past it)


# -- addresses -------------------------------------------------------------------------------
def normalized_email(text: str) -> str:
    """An address as it will be written to, or a GameError naming what is wrong with it."""
    try:
        return str(validate_email(text, check_deliverability=False).normalized)
    except EmailNotValidError as e:
        raise GameError(
            "bad_request", _("That email address does not work: %(why)s", why=e)
        ) from None


def set_email(store: Store, player_id: str, email: str | None) -> Player:
    """Keep ``email`` (unverified: nothing is sent to it but the verification), or forget the
    address (None)."""
    with store.sessions() as s, s.begin():
        p = s.get(Player, player_id, with_for_update=True)
        assert p is not None
        if p.email != email:
            p.email = email
            p.email_verified_at = None
        s.flush()
        s.expunge(p)
        return p


def verification_link(
    public_url: str, secret: str, player_id: str, email: str, now: datetime
) -> str:
    token = signed_token(
        secret, VERIFY, {"p": player_id, "e": email, "x": int((now + VERIFY_FOR).timestamp())}
    )
    return f"{public_url.rstrip('/')}/email/verify?t={quote(token)}"


def verify(store: Store, secret: str, token: str, now: datetime) -> str | None:
    """Mark the address of a verification link verified; the address, or None if the link
    is not valid (altered, expired, or for an address the account no longer has)."""
    data = read_token(secret, VERIFY, token)
    if data is None or not isinstance(data.get("x"), int) or data["x"] < now.timestamp():
        return None
    with store.sessions() as s, s.begin():
        p = s.get(Player, str(data.get("p")), with_for_update=True)
        if p is None or p.email is None or p.email != data.get("e"):
            return None
        if p.email_verified_at is None:
            p.email_verified_at = now
        return p.email


def unsubscribe_link(public_url: str, secret: str, player_id: str, kind: str) -> str:
    token = signed_token(secret, UNSUBSCRIBE, {"p": player_id, "k": kind})
    return f"{public_url.rstrip('/')}/email/unsubscribe?t={quote(token)}"


def unsubscribe_target(secret: str, token: str) -> tuple[str, str] | None:
    """The account and kind (or "all") an unsubscribe link names, or None."""
    data = read_token(secret, UNSUBSCRIBE, token)
    if data is None:
        return None
    kind = data.get("k")
    if kind not in (*notices.KINDS, "all") or not isinstance(data.get("p"), str):
        return None
    return data["p"], kind


def unsubscribe(store: Store, player_id: str, kind: str) -> bool:
    """Switch email off for ``kind`` (or every kind); False if there is no such account."""
    with store.single() as s:
        if s.get(Player, player_id) is None:
            return False
    kinds = notices.KINDS if kind == "all" else (kind,)
    notices.set_channels(store, player_id, {k: {"email": False} for k in kinds})
    return True


def verification_message(to: str, link: str, name: str, language: str) -> Any:  # an EmailMessage
    with i18n.use_locale(language):
        subject = _("Confirm your email address for Pocket Arena")
        text = "\n\n".join(
            [
                _("Hello %(name)s,", name=name),
                _("open this link to receive Pocket Arena's notifications at this address:"),
                link,
                _("The link works for two days. If you did not ask for it, ignore this email."),
            ]
        )
    return compose(to, subject, text + "\n", language)


def switches(
    player: Player, subscribed: int, email_sent: bool, push_key: str | None
) -> dict[str, Any]:
    """The account page's switches: the channels of each kind (with their names in the
    current language), the address and whether it is verified, whether this server sends
    email, the push key and how many browsers have push on."""
    return {
        "channels": notices.channels(player.notice_channels),
        "kinds": notices.kind_names(),
        "email": player.email,
        "email_verified": player.email_verified_at is not None,
        "email_sent": email_sent,
        "push_key": push_key,
        "push_browsers": subscribed,
    }


# -- push subscriptions ----------------------------------------------------------------------
def subscribe(
    store: Store,
    player_id: str,
    endpoint: str,
    p256dh: str,
    auth: str,
    user_agent: str,
    now: datetime,
) -> None:
    """Keep a browser's subscription (again: its keys replaced); past ``MAX_SUBSCRIPTIONS``
    the account's oldest is dropped."""
    with store.sessions() as s, s.begin():
        row = s.get(PushSubscriptionRow, endpoint, with_for_update=True)
        if row is None:
            row = PushSubscriptionRow(endpoint=endpoint, created_at=now)
            s.add(row)
        row.player_id = player_id
        row.p256dh = p256dh
        row.auth = auth
        row.user_agent = user_agent[:200]
        s.flush()
        mine = list(
            s.scalars(
                select(PushSubscriptionRow)
                .where(PushSubscriptionRow.player_id == player_id)
                .order_by(PushSubscriptionRow.created_at.desc())
            )
        )
        for old in mine[MAX_SUBSCRIPTIONS:]:
            s.delete(old)


def unsubscribe_push(store: Store, player_id: str, endpoint: str) -> bool:
    with store.sessions() as s, s.begin():
        gone = s.execute(
            delete(PushSubscriptionRow).where(
                PushSubscriptionRow.endpoint == endpoint,
                PushSubscriptionRow.player_id == player_id,
            )
        )
        return bool(gone.rowcount)  # type: ignore[attr-defined]


def subscriptions(store: Store, player_id: str) -> int:
    with store.single() as s:
        return len(
            s.scalars(
                select(PushSubscriptionRow.endpoint).where(
                    PushSubscriptionRow.player_id == player_id
                )
            ).all()
        )


def drop_subscription(store: Store, endpoint: str) -> None:
    with store.sessions() as s, s.begin():
        s.execute(delete(PushSubscriptionRow).where(PushSubscriptionRow.endpoint == endpoint))


# -- the sender ------------------------------------------------------------------------------
@dataclass
class Outgoing:
    """A notification claimed for sending, with what its sending needs."""

    id: int
    player_id: str
    name: str
    kind: str
    game_id: str | None
    data: dict[str, Any]
    language: str
    time_zone: str
    email: str | None  # where to write (None: no email for this one)
    pushes: list[dict[str, Any]] = field(default_factory=list)  # subscriptions


def claim(store: Store, now: datetime, limit: int = BATCH) -> list[Outgoing]:
    """Take up to ``limit`` notifications due for email or push, deciding for each what goes
    where (the channels as they are now)."""
    with store.sessions() as s, s.begin():
        rows = list(
            s.scalars(
                select(NotificationRow)
                .where(NotificationRow.due)
                .order_by(NotificationRow.id)
                .limit(limit)
                .with_for_update(skip_locked=True)
            )
        )
        if not rows:
            return []
        pids = sorted({r.player_id for r in rows})
        players = {
            p.id: p
            for p in s.scalars(
                select(Player).where(Player.id.in_(pids)).order_by(Player.id).with_for_update()
            )
        }
        mailed = {
            (pid, gid)
            for pid, gid in s.execute(
                select(NotificationRow.player_id, NotificationRow.game_id).where(
                    NotificationRow.player_id.in_(pids),
                    NotificationRow.game_id.is_not(None),
                    NotificationRow.emailed_at >= now - MAIL_GAP,
                )
            )
        }
        subs: dict[str, list[dict[str, Any]]] = {}
        for sub in s.scalars(
            select(PushSubscriptionRow).where(PushSubscriptionRow.player_id.in_(pids))
        ):
            subs.setdefault(sub.player_id, []).append(
                {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}
            )
        out = []
        for r in rows:
            r.due = False
            p = players[r.player_id]
            on = notices.channels(p.notice_channels)[r.kind]
            email = None
            verified = p.email is not None and p.email_verified_at is not None
            if on["email"] and verified and (r.player_id, r.game_id) not in mailed:
                email = p.email
                r.emailed_at = now
                if r.game_id is not None:  # one per game per hour; others each once
                    mailed.add((r.player_id, r.game_id))
            pushes = subs.get(r.player_id, []) if on["push"] else []
            if pushes:
                r.pushed_at = now
            if email or pushes:
                out.append(
                    Outgoing(
                        id=r.id,
                        player_id=r.player_id,
                        name=p.name,
                        kind=r.kind,
                        game_id=r.game_id,
                        data=dict(r.data or {}),
                        language=p.language if p.language and i18n.known(p.language) else "en",
                        time_zone=i18n.valid_time_zone(p.time_zone) or "UTC",
                        email=email,
                        pushes=pushes,
                    )
                )
        return out


class Sender:
    """Empties the queue: ``await sender.run_once(now)`` sends one batch."""

    def __init__(
        self,
        store: Store,
        secret: str,
        public_url: str,
        mailer: Mailer | None,
        pusher: Pusher | None,
    ) -> None:
        self.store = store
        self.secret = secret
        self.public_url = public_url.rstrip("/")
        self.mailer = mailer
        self.pusher = pusher
        self.failures = 0  # sends that failed (logged), for tests and health

    async def run_once(self, now: datetime) -> int:
        """Send one batch; how many notifications it held."""
        batch = await asyncio.to_thread(claim, self.store, now)
        await asyncio.gather(*(self._send(o) for o in batch))
        return len(batch)

    async def _send(self, o: Outgoing) -> None:
        with i18n.use_locale(o.language), i18n.use_time_zone(o.time_zone):
            text = notices.words(o.kind, o.data)
            url = self.public_url + notices.url_of(o.game_id, o.player_id)
            body = self._email_body(o, text, url) if o.email else ""
        if o.email and self.mailer is not None:
            link = unsubscribe_link(self.public_url, self.secret, o.player_id, o.kind)
            try:
                await self.mailer.send(compose(o.email, text, body, o.language, link))
            except Exception as e:  # the mail server away or refusing: told in the log
                self.failures += 1
                log.warning("notification %d not emailed: %s", o.id, e)
        if self.pusher is not None:
            payload = {
                "title": "Pocket Arena",
                "body": text,
                "url": url,
                "tag": o.game_id or o.kind,
            }
            for sub in o.pushes:
                try:
                    if not await self.pusher.send(sub, payload):
                        await asyncio.to_thread(drop_subscription, self.store, sub["endpoint"])
                except Exception as e:
                    self.failures += 1
                    log.warning("notification %d not pushed: %s", o.id, e)

    def _email_body(self, o: Outgoing, text: str, url: str) -> str:
        lines = [_("Hello %(name)s,", name=o.name), text]
        deadline = o.data.get("deadline")
        if o.kind == "your_turn" and isinstance(deadline, str):
            try:
                when = i18n.format_datetime(aware(datetime.fromisoformat(deadline)), "full")
                lines.append(_("Your move is due by %(when)s.", when=when))
            except ValueError:
                pass
        lines.append(_("Open it: %(url)s", url=url))
        account = self.public_url + "/account"
        lines.append(
            "-- \n"
            + _("You get these emails because your account asked for them.")
            + "\n"
            + _("Choose which ones on %(url)s, or stop this kind with one click:", url=account)
            + "\n"
            + unsubscribe_link(self.public_url, self.secret, o.player_id, o.kind)
        )
        return "\n\n".join(lines) + "\n"


SEND_EVERY_S = 2.0
SAY_EVERY_S = 60.0


async def send_forever(sender: Sender, now: Any) -> None:
    """The background chore of every process: a batch every few seconds (at once again after
    a full one)."""
    said = -SAY_EVERY_S
    while not cancel_lost():  # not True: a lost cancel (see cancel_lost) ends it too
        try:
            sent = await sender.run_once(now())
        except asyncio.CancelledError:
            raise
        except Exception as e:  # the database away: the next round tries again
            sent = 0
            if time.monotonic() - said >= SAY_EVERY_S:
                said = time.monotonic()
                log.warning("sending notifications failed (%s); retrying", e)
        if sent < BATCH:
            await asyncio.sleep(SEND_EVERY_S)
