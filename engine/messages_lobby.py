"""English messages of the lobby, where players sign up for the next series between series (``lobby.*``;
``docs/host.md``, "The lobby"). Merged into ``engine.messages.CATALOG``; the ``ru_ru`` and ``uk_ua`` language
files carry the same keys.

Sign-ups are public: who signed up, who withdrew and the cast drawn are announced to everyone. A refusal is a
private message to the one who pressed (or to the host who tried to add a name).
"""

from __future__ import annotations

LOBBY_MESSAGES: dict[str, str] = {
    # what players see
    "lobby.title": "The lobby",
    "lobby.invite": "The next series needs {seats} contestants: {count} of {seats} seats are taken. Sign up to play.",
    "lobby.list": "Signed up: {players}.",
    "lobby.list.none": "Nobody has signed up yet.",
    "lobby.signed_up": "You are signed up for the next series ({count} of {seats}). To withdraw: /trigger traitors.withdraw",
    "lobby.joined": "{player} signed up for the next series ({count} of {seats}).",
    "lobby.withdrawn": "You have withdrawn from the next series.",
    "lobby.left": "{player} withdrew from the next series ({count} of {seats}).",
    "lobby.standby": "You are a stand-by for this series: the host may call you in to replace a contestant.",
    "lobby.standby.none": "No stand-by is on the server: seat {seat} ({contestant}) waits for a new player, who takes "
    "it by typing /trigger traitors.console.",
    "lobby.starting": "The series begins. The contestants, in seat order: {players}.",
    "lobby.drawn": "The cast is drawn, in seat order: {players}.",
    "lobby.picked": "{player} takes seat {seat}.",
    "lobby.cleared": "The host has cleared the draw; the seats are free again.",
    "lobby.board": "Next series: {count} of {seats} signed up",
    "lobby.actionbar": "Sign-ups for the next series: {count} of {seats}. To play: /trigger traitors.signup",
    "lobby.button.sign_up": "Sign up",
    "lobby.button.withdraw": "Withdraw",
    # refusals (private, nothing changes)
    "lobby.already": "You are already signed up for the next series.",
    "lobby.not_signed_up": "You are not signed up, so there is nothing to withdraw.",
    "lobby.full": "The castle has {capacity} seats and every one is taken by a sign-up; try again when someone "
    "withdraws.",
    "lobby.host_plays": "Hosts run the series and do not play in it.",
    "lobby.closed": "Sign-ups are closed while a series runs; the lobby opens again when it is over.",
    "lobby.not_online": "{player} is not on the server: only a player on the server can sign up.",
    "lobby.short": "{seats} seats but only {count} sign-ups: {missing} more must sign up first.",
    "lobby.complete": "Every seat is taken: start the series, or clear the draw.",
    "lobby.not_ready": "Draw the cast first: {count} of {seats} seats are filled.",
    "lobby.no_pick": "There is no sign-up number {index} waiting for a seat.",
    # the host's lobby console
    "lobby.console": "Sign-ups: {count}. Cast ({cast} of {seats}): {seated}.",
    "lobby.button.draw": "Draw the cast",
    "lobby.button.start": "Start the series",
    "lobby.button.clear": "Clear the draw",
    "lobby.button.pick": "Seat {player}",
    "lobby.button.refresh": "Refresh",
    "lobby.none": "nobody",
}
"""Lobby key → English text (placeholders as in ``engine.messages``)."""
