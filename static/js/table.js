/* Referee at the table (a file, not inline: the CSP allows scripts from this site only, no
   eval). Every match page polls its scoreboard (#scoreboard, hx-trigger "every 1s").
   1. No false alarms: a poll answer is dropped when the poll left before the answer to this
      page's own request (a hand entered, an undo...) came back, or while that answer is still
      on its way: it was built on the old hand and would call this phone's own change a change
      "on another phone". The next poll asks with the page the answer brought.
   2. No polling while the page is hidden (a phone in a pocket, another tab).
   3. The screen kept awake while a match page is shown (Screen Wake Lock API), unless the
      switch #keep-awake is off (remembered on this browser); released when the page is
      hidden, asked for again when it is shown.
   4. Focus after a swap: the control that was used keeps it when the new page still has it
      on the screen (the same id, or the same name and value: "Anna won trick 4" after "Anna
      won trick 3"); else it goes where it is needed next: the error, else the outcome notice,
      else what the deal stands at ("So far: …"), else the editor's first control that is shown (not one in a closed <details>), brought
      on the screen. Never to <body>, which sends a keyboard back to the top.
   5. What the user opened stays open: the live scoreboard's answer re-renders the hands'
      history and the history of changes (hx-swap-oob); a <details> opened there is opened
      again in the new copy (known by its id, or its place in the nearest element with one).
      This page's own request forgets them: its answer is a new page (the top of the live
      part, #live-top, with the scoreboard, the editor and the histories out of band, every
      part it changed; matches/page.py render_live).
   6. The links for more phones are open on a new match's page; once its first hand is
      recorded (on this phone or another) they fold away, as the page would load them.
   7. Earlier hands brought into the history stay there: the live scoreboard's answer
      re-renders the history with the latest hands only, so the earlier ones are brought
      again, as they now stand, down to the first one this phone had brought. This page's own
      request forgets them, as it forgets what was open (5).
   8. The chart, once opened, stays open: an answer that brings its panel back folded opens it
      again (it then loads the chart as the match now stands), and a change from another
      phone loads it again.
   9. A new match's choice of seat (Stovkahra's first dealer) says each seat by the name typed
      or picked for it, as it is typed ("Anna", not "North").
  10. Enter in a field (a phone's Go key) presses the main button of the part of the form the
      field is in: the nearest fieldset, section, details or form around it that has buttons
      of its own (not those of a part inside it), its first primary one, else its first. A
      browser presses the form's first button, which in a form of several parts (Tartli's
      "Score it now" under "Start hand", Marjolet's turn after the Finish) is another part's.
      Without JavaScript the form's first button is its most used action (a hidden one where
      needed: templates/_editor_macros.html, enter_key).
  11. An editor follows the match while nothing is typed into it: each poll says whether the
      editor holds something typed (a field changed from the value the page brought, or what
      a refusal kept: [data-typed]); when another phone changed the hand it is about, the
      answer to an untouched editor is the editor as the match now stands (the next hand's,
      matches/live.py live), and to one with something typed a warning. An answer that brings a new
      editor is dropped if something was typed while it was on its way: the next poll warns.
      A reader of the hands' history below keeps their place when the editor above changes. */
(function () {
  "use strict";

  var POLL = "scoreboard";
  var pending = [];          // this page's own requests still on their way
  var answered = 0;          // when the last answer to one of them came back

  function isPoll(elt) { return elt && elt.id === POLL; }

  // The history's own loads (a hand's explanation, earlier hands: inside [data-adds]) only add
  // to the page: they neither forget what is open (5) nor move the focus (4).
  function addsOnly(elt) { return Boolean(elt && elt.closest && elt.closest("[data-adds]")); }

  // Has something been typed into the editor (11)? A control whose state is not the one the
  // page brought, or an editor that keeps what a refusal or a conflict sent back.
  function changed(el) {
    if (el.type === "hidden" || el.type === "submit" || el.type === "button") { return false; }
    if (el.type === "checkbox" || el.type === "radio") { return el.checked !== el.defaultChecked; }
    if (el.tagName === "SELECT") {
      var options = Array.prototype.slice.call(el.options);
      var preset = options.some(function (o) { return o.defaultSelected; });
      return options.some(function (o, i) {
        return o.selected !== (preset ? o.defaultSelected : i === 0 && !el.multiple);
      });
    }
    return el.value !== el.defaultValue;
  }

  function typed() {
    var editor = document.getElementById("live-editor");
    if (!editor) { return false; }
    if (editor.hasAttribute("data-typed")) { return true; }
    return Array.prototype.some.call(editor.querySelectorAll("input, select, textarea"), changed);
  }

  // A late poll answer: its scoreboard may no longer be in the page (the answer to this
  // page's own request replaced it), so its events do not bubble up to the document: the
  // check listens on the scoreboard itself.
  function checkPoll(event) {
    var xhr = event.detail.xhr;
    if (xhr.refereeSent === undefined) { return; }
    if (pending.length > 0 || xhr.refereeSent <= answered) {
      event.detail.shouldSwap = false;
    } else if (xhr.getResponseHeader("HX-Retarget")) {
      if (typed()) {
        event.detail.shouldSwap = false;     // a new editor, but something was typed meanwhile
      } else {
        // a new editor above the hands being read (the history fills the middle of the
        // view): the reader keeps their place
        var below = document.getElementById("history");
        var top = below ? below.getBoundingClientRect().top : Infinity;
        following = top < window.innerHeight / 2 ? {xhr: xhr, top: top} : null;
      }
    }
  }

  var following = null;      // where the history stood below an editor a poll replaces

  document.addEventListener("htmx:afterSettle", function (event) {
    if (!following || following.xhr !== event.detail.xhr) { return; }
    var below = document.getElementById("history");
    if (below) { window.scrollBy(0, below.getBoundingClientRect().top - following.top); }
    following = null;
  });

  document.addEventListener("htmx:configRequest", function (event) {
    // said only where there is an editor (a view link's page has none): "0" lets it follow
    if (isPoll(event.detail.elt) && document.querySelector("#live-editor form")) {
      event.detail.parameters.typed = typed() ? "1" : "0";
    }
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    var xhr = event.detail.xhr;
    if (isPoll(elt)) {
      if (document.hidden) { event.preventDefault(); return; }
      xhr.refereeSent = performance.now();
      if (!elt.refereeChecked) {
        elt.refereeChecked = true;
        elt.addEventListener("htmx:beforeSwap", checkPoll);
      }
    }
  });

  // This page's own requests, counted once they are really sent (nothing cancels them after).
  document.addEventListener("htmx:beforeSend", function (event) {
    var xhr = event.detail.xhr;
    if (isPoll(event.detail.elt)) { return; }
    pending.push(xhr);
    xhr.addEventListener("loadend", function () {
      pending = pending.filter(function (other) { return other !== xhr; });
      answered = performance.now();
    });
  });

  // What the user opened stays open across the live scoreboard's swaps.
  var opened = {};           // keys of the <details> the user opened in the swapped parts

  function detailsKey(details) {
    if (details.id) { return details.id; }
    var holder = details.parentElement && details.parentElement.closest("[id]");
    if (!holder) { return null; }
    var all = holder.querySelectorAll("details");
    return holder.id + ":" + Array.prototype.indexOf.call(all, details);
  }

  function rememberToggle(event) {
    var details = event.target;
    if (!details || details.tagName !== "DETAILS" || !details.closest("#history, #changes")) { return; }
    var key = detailsKey(details);
    if (key === null) { return; }
    if (details.open) { opened[key] = true; } else { delete opened[key]; }
  }

  function reopen(event) {
    var swapped = event.target;
    if (!swapped || !swapped.querySelectorAll) { return; }
    swapped.querySelectorAll("details").forEach(function (details) {
      var key = detailsKey(details);
      if (key !== null && opened[key] && !details.open) { details.open = true; }
    });
  }

  document.addEventListener("toggle", rememberToggle, true);   // toggle does not bubble
  document.addEventListener("htmx:oobAfterSwap", reopen);

  // Earlier hands brought into the history stay there across the scoreboard's redraws (7).
  var broughtFrom = null;    // the first hand this phone brought into the history
  var bringing = false;      // bringing them again after a redraw

  function isEarlier(elt) { return Boolean(elt && elt.matches && elt.matches("li.earlier a")); }

  function firstShown() {
    var row = document.querySelector("#history li.hand[id^='hand-']");
    return row ? parseInt(row.id.slice(5), 10) : null;
  }

  function bringEarlier() {
    var link = document.querySelector("#history li.earlier a");
    var first = firstShown();
    bringing = broughtFrom !== null && link !== null && first !== null && first > broughtFrom;
    if (bringing) { link.click(); }
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    var elt = event.detail.requestConfig ? event.detail.requestConfig.elt : event.detail.elt;
    if (isEarlier(elt)) {
      if (bringing) {
        reopen({ target: document.getElementById("history") });
        bringEarlier();
      } else {
        broughtFrom = firstShown();
      }
    } else if (isPoll(elt)) {
      bringEarlier();
    }
  });
  // This page's own request forgets what was opened (5) and the earlier hands brought (7).
  document.addEventListener("htmx:beforeSend", function (event) {
    var elt = event.detail.elt;
    if (!isPoll(elt) && !addsOnly(elt)) { opened = {}; broughtFrom = null; bringing = false; }
  });

  // The chart, once opened, stays open (8).
  var chartOpen = false;
  document.addEventListener("toggle", function (event) {
    if (event.target && event.target.id === "chart") { chartOpen = event.target.open; }
  }, true);
  document.addEventListener("htmx:afterSettle", function (event) {
    var chart = document.getElementById("chart");
    if (!chart || !chartOpen) { return; }
    if (!chart.open) { chart.open = true; return; }
    var drawn = chart.querySelector("svg");
    var xhr = event.detail.xhr;
    if (drawn && isPoll(event.detail.elt) && xhr && xhr.status === 200) {
      htmx.ajax("GET", chart.dataset.chart, { source: drawn, target: drawn, swap: "outerHTML" });
    }
  });

  // The screen kept awake.
  var KEY = "referee.keepAwake";
  var lock = null;

  function wanted() {
    var box = document.getElementById("keep-awake");
    return box !== null && box.checked;
  }

  function say(text) {
    var state = document.getElementById("keep-awake-state");
    if (state) { state.textContent = text; }
  }

  function acquire() {
    if (!("wakeLock" in navigator) || !wanted() || document.hidden || lock) { return; }
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      say("");
      sentinel.addEventListener("release", function () {
        if (lock === sentinel) { lock = null; }
      });
      if (!wanted() || document.hidden) { release(); }
    }, function () {
      say("This browser does not let the page keep the screen on now.");
    });
  }

  function release() {
    if (lock) {
      var sentinel = lock;
      lock = null;
      sentinel.release();
    }
  }

  function setUp() {
    sayNames();
    var box = document.getElementById("keep-awake");
    if (box === null) { return; }
    var control = box.closest(".keep-awake");
    if (!("wakeLock" in navigator)) { return; }      // stays hidden: nothing to switch
    if (control) { control.hidden = false; }
    var stored = null;
    try { stored = window.localStorage.getItem(KEY); } catch (e) { stored = null; }
    box.checked = stored !== "off";
    box.addEventListener("change", function () {
      try { window.localStorage.setItem(KEY, box.checked ? "on" : "off"); } catch (e) { /* private mode */ }
      if (box.checked) { acquire(); } else { release(); say(""); }
    });
    acquire();
  }

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { release(); } else { acquire(); }
  });

  // Focus after a swap (4).
  var submitter = null;      // the button that submitted the form being sent
  var used = null;           // how to find the control of this page's own request again
  var before = null;         // the focused control when any answer (a poll's too) was swapped

  function keyOf(el) {
    if (!el || el === document.body || el === document.documentElement) { return null; }
    if (el.id) { return "#" + CSS.escape(el.id); }
    if (!el.name) { return null; }
    var key = el.tagName.toLowerCase() + '[name="' + CSS.escape(el.name) + '"]';
    if (el.tagName === "BUTTON" || el.type === "radio" || el.type === "checkbox") {
      key += '[value="' + CSS.escape(el.value) + '"]';
    }
    return key;
  }

  // Where a control without id or name stood (a hand's summary, its Delete button): the part
  // with an id around it and its rank among the controls of its kind there.
  var CONTROLS = "a[href], button, summary, input, select, textarea";

  function placeOf(el) {
    var root = el && el.parentElement ? el.parentElement.closest("[id]") : null;
    if (!root || !el.matches(CONTROLS)) { return null; }
    var same = root.querySelectorAll(el.tagName);
    return {root: root.id, tag: el.tagName, index: Array.prototype.indexOf.call(same, el)};
  }

  function foundAgain(was) {
    var el = was.key ? document.querySelector(was.key) : null;
    if (el || !was.place) { return el; }
    var root = document.getElementById(was.place.root);
    return root ? root.querySelectorAll(was.place.tag)[was.place.index] || null : null;
  }

  // Shown: not hidden, nor inside a closed <details> (whose content still has boxes).
  function shown(el) {
    if (el.closest("[hidden]") || el.getClientRects().length === 0) { return false; }
    return el.checkVisibility ? el.checkVisibility() : true;
  }

  function onScreen(el) {
    var box = el.getBoundingClientRect();
    return box.bottom > 0 && box.top < window.innerHeight;
  }

  function focusOn(el, focusable) {
    if (!el || !shown(el)) { return false; }
    if (!focusable && !el.hasAttribute("tabindex")) { el.setAttribute("tabindex", "-1"); }
    el.focus({preventScroll: true});
    return document.activeElement === el;
  }

  // The editor's first control that takes the focus, brought on the screen if it is not.
  function focusFirstControl(root) {
    if (!root) { return; }
    var all = root.querySelectorAll(
      "input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea, button:not([disabled])");
    for (var i = 0; i < all.length; i += 1) {
      if (focusOn(all[i], true)) {
        if (!onScreen(all[i])) { all[i].scrollIntoView({block: "nearest"}); }
        return;
      }
    }
  }

  // The control used keeps the focus where the answer shows it on the screen; never one off
  // the screen (an answer scrolled to its error or outcome).
  function placeFocus(key) {
    var kept = key ? document.querySelector(key) : null;
    if (kept && onScreen(kept) && focusOn(kept, true)) { return; }
    var error = document.querySelector("#rule-error, #alerts [role=alert]");
    if (error && focusOn(error, false)) { return; }
    var notice = document.querySelector("#live .notice, #live [role=status]");
    if (notice && focusOn(notice, false)) { return; }
    var sofar = document.querySelector("#editor p.verdict");      // "So far: …" (a deal's)
    if (sofar && onScreen(sofar) && focusOn(sofar, false)) { return; }
    focusFirstControl(document.getElementById("editor"));
  }

  document.addEventListener("submit", function (event) {
    submitter = event.submitter || null;
  }, true);

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (isPoll(elt) || addsOnly(elt) || event.defaultPrevented) { return; }
    var active = document.activeElement;
    if (!active || active === document.body || !elt.contains(active)) { active = submitter; }
    used = {key: keyOf(active), xhr: event.detail.xhr};
    submitter = null;
  });

  document.addEventListener("htmx:beforeSwap", function () {
    var active = document.activeElement;
    before = {key: keyOf(active), place: placeOf(active)};
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    var own = used && used.xhr === event.detail.xhr ? used : null;
    var was = before;
    if (own) { used = null; }
    before = null;
    // once every part of the answer has settled (an answer swaps several: oob parts)
    window.setTimeout(function () {
      var lost = !document.activeElement || document.activeElement === document.body;
      if (own) {
        placeFocus(own.key);
      } else if (was && lost) {          // a poll swapped the part that had the focus
        var again = foundAgain(was);
        if (again) { focusOn(again, true); }
      }
    }, 0);
  });

  document.addEventListener("htmx:afterSettle", function () {
    var share = document.querySelector("#share details[data-fold-once-started]");
    if (share && document.querySelector("#history li.hand")) {
      share.open = false;
      share.removeAttribute("data-fold-once-started");
    }
  });

  // A seat chosen on a new match's page is said by the name typed or picked for it (9).
  function seatName(span) {
    var ids = span.dataset.nameOf.split(" ");
    for (var i = 0; i < ids.length; i += 1) {
      var field = document.getElementById(ids[i]);
      var name = "";
      if (field && field.tagName === "SELECT") {
        name = field.value ? field.options[field.selectedIndex].text : "";
      } else if (field) {
        name = field.value.trim();
      }
      if (name) { return name; }
    }
    return span.dataset.seat;
  }

  function sayNames() {
    document.querySelectorAll("[data-name-of]").forEach(function (span) {
      span.textContent = seatName(span);
    });
  }

  document.addEventListener("input", sayNames);
  document.addEventListener("change", sayNames);

  // Enter presses the main button of the field's own part of the form (10).
  var PART = "fieldset, section, details, form";
  var NOT_TYPED = /^(submit|button|reset|image|file)$/;

  function mainButton(field) {
    var form = field.form;
    for (var part = field.closest(PART); part && form; part = part.parentElement && part.parentElement.closest(PART)) {
      var own = Array.prototype.filter.call(
        part.querySelectorAll("button[type=submit]:not([hidden]):not([disabled])"),
        function (button) { return button.form === form && button.parentElement.closest(PART) === part; });
      if (own.length > 0) {
        return own.filter(function (button) { return button.classList.contains("primary"); })[0] || own[0];
      }
      if (part === form) { return null; }
    }
    return null;
  }

  document.addEventListener("keydown", function (event) {
    var field = event.target;
    if (event.key !== "Enter" || event.defaultPrevented || event.isComposing || !field
        || field.tagName !== "INPUT" || NOT_TYPED.test(field.type) || !field.form) { return; }
    var button = mainButton(field);
    if (button) {
      event.preventDefault();
      button.click();
    }
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
}());
