"""The play screen: the game's choices (announce, believe, reveal, pick, declare, ...) and its bar."""

from __future__ import annotations

from appliance.kiosk import view
from appliance.kiosk.screens import Screen
from appliance.table.base import Play


class PlayScreen(Screen):
    """The game in progress. sub: the sub-picker open, "" | "believe" (Mäxle: roll under the cup and
    announce higher) | "breaker" (Biscuit: who broke the rule); picked: a multi-pick in progress;
    page: the page of a list of players too long for one screen (``appliance.kiosk.view.players_page``)."""

    name = "play"

    def __init__(self, app) -> None:
        super().__init__(app)
        self.sub = ""
        self.picked: list[str] = []
        self.page = 0

    def reset(self) -> None:
        """No sub-picker, no pick in progress, the first page."""
        self.sub, self.picked, self.page = "", [], 0

    @property
    def handlers(self):
        act, app = self.app.act, self.app
        return {
            "announce": self.on_announce, "believe": lambda _arg: self._open("believe"),
            "reveal": lambda _arg: app.reveal(), "accept": lambda _arg: act({"accept": True}),
            "self_reveal": lambda _arg: act({"self_reveal": True}), "blind_pass": lambda _arg: act({"blind_pass": True}),
            "pick": self.on_pick, "unpick": self.on_unpick, "picked": self.on_picked,
            "thumbs": lambda name: act({"thumbs_last": name}), "breaker": lambda _arg: self._open("breaker"),
            "broke": self.on_broke, "declare": lambda category: act({"declare": category}),
            "stop": lambda _arg: act({"stop": True}), "fix": lambda _arg: app.open_correction(),
            "menu": lambda _arg: setattr(app, "screen", "menu"), "sheet": lambda _arg: setattr(app, "screen", "sheet"),
            "page": lambda _arg: setattr(self, "page", self.page + 1),
        }

    def view(self):
        app = self.app
        return view.play(app.session, Play(sub=self.sub, picked=tuple(self.picked), page=self.page, evening=app.evening,
                                           yacht_hint=app.yacht_hint, maexle_odds=app.maexle_odds))

    def back(self) -> None:
        if self.sub or self.picked:
            self.reset()

    def _open(self, sub: str) -> None:
        self.sub, self.page = sub, 0

    def on_announce(self, arg: str) -> None:
        """Announce the value ``arg`` (Mäxle)."""
        if self.app.act({"announce": int(arg)}):
            self.sub = ""

    def on_pick(self, name: str) -> None:
        """One player picked: a pick of one is taken at once; more are collected, then confirmed."""
        session = self.app.session
        need = session.need if session else None
        if need is None or need.kind != "pick":
            return
        count = int(need.raw.get("count", 1))
        repeats = bool(need.raw.get("repeats"))
        if count == 1:
            self.app.act({"pick": [name]})
            return
        if name in self.picked and not repeats:
            self.picked.remove(name)
        elif len(self.picked) < count:
            self.picked.append(name)
        if len(self.picked) == count and not repeats:
            self.on_picked("")

    def on_unpick(self, _arg: str) -> None:
        """Take back the last pick."""
        if self.picked:
            self.picked.pop()

    def on_picked(self, _arg: str) -> None:
        """Confirm the players picked so far."""
        if self.app.act({"pick": list(self.picked)}):
            self.picked = []

    def on_broke(self, name: str) -> None:
        """Player ``name`` broke the Biscuit's rule."""
        if self.app.act({"rule_broken": name}):
            self.sub = ""
