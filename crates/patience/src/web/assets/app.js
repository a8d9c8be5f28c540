// The web player's page: draws the game the server holds and sends the player's moves to it. It never decides
// whether a move is legal: it asks the server (docs/web-api.md), and shows the engine's reason when a move is
// refused. Plain JavaScript, no build step, nothing fetched from elsewhere.
'use strict';

(() => {
  const SUIT_SYMBOL = { C: '\u2663', S: '\u2660', H: '\u2665', D: '\u2666' };
  const SUIT_NAME = { C: 'clubs', S: 'spades', H: 'hearts', D: 'diamonds' };
  const FOUNDATION_SUITS = ['C', 'S', 'H', 'D'];
  const RANK_NAME = {
    A: 'Ace', 2: 'Two', 3: 'Three', 4: 'Four', 5: 'Five', 6: 'Six', 7: 'Seven', 8: 'Eight', 9: 'Nine',
    T: 'Ten', J: 'Jack', Q: 'Queen', K: 'King',
  };
  const SESSION_KEY = 'patience.session';
  const SETTINGS_KEY = 'patience.settings';
  const ANIMATION_MS = 170;

  const $ = (selector) => document.querySelector(selector);
  const board = $('#board');

  const app = {
    games: [],
    state: null,
    selection: null, // {pile, count} (count null: as many as fit)
    hint: null, // {move, moveCount, id}
    drag: null,
    justDragged: false,
    pollTimer: null,
    postmortemTimer: null,
    cw: 80,
    busy: false,
    settings: loadSettings(),
    wasWon: false,
  };

  // ---- The server ---------------------------------------------------------------------------------------

  async function api(method, path, body) {
    const options = { method, headers: {} };
    if (body !== undefined) {
      options.headers['Content-Type'] = 'application/json';
      options.body = JSON.stringify(body);
    }
    const response = await fetch('/api' + path, options);
    const text = await response.text();
    let data = null;
    if (text) {
      try {
        data = JSON.parse(text);
      } catch (_) {
        data = { error: text };
      }
    }
    if (!response.ok) {
      const error = new Error((data && data.error) || response.statusText);
      error.status = response.status;
      throw error;
    }
    return data;
  }

  function sessionPath(suffix) {
    return `/sessions/${app.state.id}${suffix || ''}`;
  }

  // ---- Settings -----------------------------------------------------------------------------------------

  function loadSettings() {
    try {
      return Object.assign({ game: 'canfield', winnableOnly: false, autoplay: false },
        JSON.parse(localStorage.getItem(SETTINGS_KEY) || '{}'));
    } catch (_) {
      return { game: 'canfield', winnableOnly: false, autoplay: false };
    }
  }

  function saveSettings() {
    try {
      localStorage.setItem(SETTINGS_KEY, JSON.stringify(app.settings));
    } catch (_) { /* private browsing: the settings last as long as the page */ }
  }

  // ---- Cards and piles in words -------------------------------------------------------------------------

  function cardName(code) {
    return `${RANK_NAME[code[0]]} of ${SUIT_NAME[code[1]]}`;
  }

  function rankText(code) {
    return code[0] === 'T' ? '10' : code[0];
  }

  function isRed(code) {
    return code[1] === 'H' || code[1] === 'D';
  }

  function pileName(pile) {
    const [kind, index] = pile.split(':');
    const n = Number(index);
    const layout = app.state.layout;
    switch (kind) {
      case 'stock': return 'Stock';
      case 'waste': return 'Waste';
      case 'foundation': return `${SUIT_NAME[FOUNDATION_SUITS[n]][0].toUpperCase()}${SUIT_NAME[FOUNDATION_SUITS[n]].slice(1)} foundation`;
      case 'reserve':
        if (layout.tableau === 'rails') return n === 0 ? 'Left post' : 'Right post';
        return layout.reserve.length > 1 ? `Reserve ${n + 1}` : 'Reserve';
      case 'tableau': return `Tableau ${n + 1}`;
      case 'choice': return `Choice ${n + 1}`;
      default: return pile;
    }
  }

  function cardsOf(pile) {
    const position = app.state.position;
    const [kind, index] = pile.split(':');
    const n = Number(index);
    switch (kind) {
      case 'stock': return position.stock;
      case 'waste': return position.waste;
      case 'foundation': return position.foundations[n] || [];
      case 'reserve': return position.reserve[n] || [];
      case 'tableau': return position.tableau[n] || [];
      case 'choice': return position.choice && position.choice[n] ? [position.choice[n]] : [];
      default: return [];
    }
  }

  function pileLabel(pile) {
    const cards = cardsOf(pile);
    const name = pileName(pile);
    if (pile === 'stock') {
      if (cards.length) return `${name}, ${cards.length} cards face down; press Enter to draw`;
      return legalFrom('waste').some((m) => m.to === 'stock') ? `${name}, empty; press Enter to redeal` : `${name}, empty`;
    }
    if (!cards.length) return `${name}, empty`;
    const faceUp = visibleCards(pile, cards);
    const shown = faceUp.map(cardName).join(', ');
    const count = `${cards.length} card${cards.length === 1 ? '' : 's'}`;
    if (pile.startsWith('tableau') || pile.startsWith('choice') || (pile.startsWith('reserve') && app.state.layout.reserve_face_up)) {
      return `${name}, ${count}: ${shown}`;
    }
    return `${name}, ${count}, top ${cardName(cards[cards.length - 1])}`;
  }

  /** The cards of a pile a player can see, bottom to top. */
  function visibleCards(pile, cards) {
    if (pile === 'stock') return [];
    if (pile.startsWith('reserve') && !app.state.layout.reserve_face_up) return cards.slice(-1);
    if (pile === 'waste') return cards.slice(-Math.max(1, app.state.layout.draw));
    if (pile.startsWith('foundation')) return cards.slice(-1);
    return cards;
  }

  function legalFrom(pile) {
    return app.state.legal_moves.filter((m) => m.from === pile);
  }

  // ---- Drawing ------------------------------------------------------------------------------------------

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function cardElement(code, pile, index) {
    const card = element('div', `card${isRed(code) ? ' red' : ''}`);
    card.dataset.card = code;
    card.dataset.pile = pile;
    card.dataset.index = String(index);
    card.setAttribute('aria-label', cardName(code));
    card.setAttribute('role', 'img');
    const symbol = SUIT_SYMBOL[code[1]];
    for (const corner of ['tl', 'br']) {
      const mark = element('span', `corner ${corner}`, rankText(code));
      mark.setAttribute('aria-hidden', 'true');
      mark.append(element('span', 's', symbol));
      card.append(mark);
    }
    const pip = element('span', 'pip', symbol);
    pip.setAttribute('aria-hidden', 'true');
    card.append(pip);
    return card;
  }

  function backElement() {
    const card = element('div', 'card back');
    card.setAttribute('role', 'img');
    card.setAttribute('aria-label', 'face-down card');
    return card;
  }

  /** A pile: its cards laid out as `fan` says ('down', 'right' or 'stack'). */
  function pileElement(pile, options) {
    const opts = Object.assign({ fan: 'down', mark: '', className: '' }, options);
    const node = element('div', `pile slot ${opts.className}`.trim());
    node.dataset.pile = pile;
    node.dataset.mark = opts.mark;
    node.tabIndex = 0;
    node.setAttribute('role', 'button');
    node.setAttribute('aria-label', pileLabel(pile));
    const cards = cardsOf(pile);
    const ch = app.cw * 1.4;
    const fanStep = Math.round(ch * (app.cw < 64 ? 0.32 : 0.24));
    if (pile === 'stock') {
      if (cards.length) {
        node.append(backElement());
      } else if (legalFrom('waste').some((m) => m.to === 'stock')) {
        const redeal = element('div', 'redeal', '\u21bb');
        redeal.setAttribute('aria-hidden', 'true');
        node.append(redeal);
      }
      node.classList.add('stock');
      node.append(countElement(cards.length, opts.note));
      return node;
    }
    if (opts.fan === 'stack') {
      // Only the top card shows; the others lie face down beneath it (Canfield's reserve), or are the
      // foundation's cards below its top one.
      const faceDownBelow = pile.startsWith('reserve');
      if (cards.length > 1 && faceDownBelow) node.append(backElement());
      if (cards.length) node.append(cardElement(cards[cards.length - 1], pile, cards.length - 1));
      node.style.height = `${ch}px`;
      if (faceDownBelow) node.append(countElement(cards.length));
      return node;
    }
    if (opts.fan === 'right') {
      const shown = visibleCards(pile, cards);
      const start = cards.length - shown.length;
      const step = Math.round(app.cw * 0.42);
      shown.forEach((code, i) => {
        const card = cardElement(code, pile, start + i);
        card.style.left = `${i * step}px`;
        node.append(card);
      });
      node.style.height = `${ch}px`;
      node.append(countElement(cards.length));
      return node;
    }
    const limit = opts.maxHeight || Infinity;
    const step = cards.length > 1 ? Math.max(8, Math.min(fanStep, (limit - ch) / (cards.length - 1))) : fanStep;
    cards.forEach((code, i) => {
      const card = cardElement(code, pile, i);
      card.style.top = `${Math.round(i * step)}px`;
      node.append(card);
    });
    node.style.height = `${ch + Math.max(0, cards.length - 1) * step}px`;
    return node;
  }

  function countElement(count, note) {
    const label = element('div', 'pile-count', String(count));
    if (note) label.append(element('span', 'note', ` \u00b7 ${note}`));
    label.setAttribute('aria-hidden', 'true');
    return label;
  }

  function foundationElement(i) {
    const pile = `foundation:${i}`;
    const base = app.state.position.base_rank;
    const mark = SUIT_SYMBOL[FOUNDATION_SUITS[i]] + (base ? `${base === 'T' ? '10' : base}` : '');
    return pileElement(pile, { fan: 'stack', mark });
  }

  function labelled(text, ...nodes) {
    const group = element('div', 'group');
    const label = element('div', 'group-label', text);
    label.setAttribute('aria-hidden', 'true');
    group.append(label, ...nodes);
    return group;
  }

  function row(...nodes) {
    const node = element('div', 'row');
    node.append(...nodes);
    return node;
  }

  function tableauPile(i) {
    const capacity = app.state.layout.capacity[i];
    return pileElement(`tableau:${i}`, { fan: 'down', mark: capacity === 1 ? '1' : '' });
  }

  function reservePiles() {
    const layout = app.state.layout;
    return layout.reserve.map((_, i) => pileElement(`reserve:${i}`, {
      fan: layout.reserve_face_up ? 'down' : 'stack',
    }));
  }

  /** How many card widths the layout needs side by side. */
  function columns(layout) {
    const topRow = 2.6 + (layout.tableau === 'cross' ? 0 : 4.5);
    const reserves = layout.reserve.length;
    switch (layout.tableau) {
      case 'cross': return 6;
      case 'two-rows': return Math.max(topRow, reserves + Math.ceil(layout.tableau_piles / 2) + 0.5);
      case 'rails': return Math.max(topRow, reserves + Math.ceil(layout.tableau_piles / 2) + 1);
      default: return Math.max(topRow, reserves + layout.tableau_piles + (reserves ? 0.8 : 0), layout.choice + 0.5);
    }
  }

  function setCardWidth(layout) {
    const width = board.clientWidth || window.innerWidth;
    const cols = columns(layout);
    const cw = Math.floor(Math.max(38, Math.min(110, width / (cols * 1.18))));
    app.cw = cw;
    board.classList.toggle('compact', cw < 64);
    document.documentElement.style.setProperty('--cw', `${cw}px`);
  }

  function render(animate) {
    const state = app.state;
    const layout = state.layout;
    const before = animate && !reducedMotion() ? snapshot() : null;
    board.textContent = '';
    setCardWidth(layout);
    const drawNote = layout.draw > 1 ? `draw ${layout.draw}` : 'draw 1';
    const stock = pileElement('stock', { note: drawNote });
    const waste = pileElement('waste', { fan: 'right', className: 'waste' });
    if (layout.tableau !== 'cross') {
      const top = row(stock, waste, element('div', 'spacer'));
      for (let i = 0; i < 4; i += 1) top.append(foundationElement(i));
      board.append(top);
    }
    const choice = state.position.choice || [];
    if (choice.length) {
      const places = choice.map((_, i) => pileElement(`choice:${i}`, { fan: 'stack' }));
      board.append(labelled('Choose the base card: move one of these to its foundation', row(...places)));
    }
    const n = layout.tableau_piles;
    const tableau = Array.from({ length: n }, (_, i) => tableauPile(i));
    switch (layout.tableau) {
      case 'cross': {
        // Top, left, centre, right, bottom; the foundations in the corners.
        const grid = element('div', 'cross');
        grid.append(foundationElement(0), tableau[0], foundationElement(1),
          tableau[1], tableau[2], tableau[3],
          foundationElement(2), tableau[4], foundationElement(3));
        const hand = element('div', 'group');
        hand.append(stock, element('div', 'gap-below'), waste);
        board.append(row(hand, element('div', 'spacer-small'), grid));
        break;
      }
      case 'rails': {
        const [left, right] = reservePiles();
        const half = Math.ceil(n / 2);
        const rails = element('div', 'group');
        rails.append(row(...tableau.slice(0, half)), row(...tableau.slice(half)));
        const parts = element('div', 'rails');
        parts.append(labelled('Post', left), labelled('Rails', rails), labelled('Post', right));
        board.append(parts);
        break;
      }
      case 'two-rows': {
        const half = Math.ceil(n / 2);
        const rows = element('div', 'group');
        rows.append(row(...tableau.slice(0, half)), row(...tableau.slice(half)));
        board.append(layout.reserve.length ? row(labelled('Reserve', ...reservePiles()), rows) : rows);
        break;
      }
      default: {
        const piles = row(...tableau);
        board.append(layout.reserve.length
          ? row(labelled('Reserve', ...reservePiles()), element('div', 'spacer-small'), labelled('Tableau', piles))
          : piles);
      }
    }
    decorate();
    if (before) animateFrom(before);
    renderStatus();
  }

  /** Marks the selection, the piles the selection may go to, and the hint. */
  function decorate() {
    const selection = app.selection;
    board.querySelectorAll('.selected, .target, .hinted').forEach((node) => node.classList.remove('selected', 'target', 'hinted'));
    if (selection) {
      const cards = cardsOf(selection.pile);
      const from = cards.length - (selection.count || 1);
      board.querySelectorAll(`.card[data-pile="${selection.pile}"]`).forEach((card) => {
        if (Number(card.dataset.index) >= from) card.classList.add('selected');
      });
      for (const move of legalFrom(selection.pile)) {
        if (selection.count && move.count !== selection.count) continue;
        const target = board.querySelector(`.pile[data-pile="${move.to}"]`);
        if (target) target.classList.add('target');
      }
      const pile = board.querySelector(`.pile[data-pile="${selection.pile}"]`);
      if (pile) pile.setAttribute('aria-label', `${pileLabel(selection.pile)}; selected`);
    }
    const hint = currentHint();
    if (hint && hint.move) {
      for (const pile of [hint.move.from, hint.move.to]) {
        const node = board.querySelector(`.pile[data-pile="${pile}"]`);
        if (node) node.classList.add('hinted');
      }
    }
  }

  function snapshot() {
    const rects = new Map();
    board.querySelectorAll('.card[data-card]').forEach((card) => rects.set(card.dataset.card, card.getBoundingClientRect()));
    const stock = board.querySelector('.pile[data-pile="stock"]');
    if (stock) rects.set('#stock', stock.getBoundingClientRect());
    return rects;
  }

  function animateFrom(before) {
    board.querySelectorAll('.card[data-card]').forEach((card) => {
      const start = before.get(card.dataset.card) || (card.dataset.pile === 'waste' ? before.get('#stock') : null);
      if (!start) return;
      const end = card.getBoundingClientRect();
      const dx = start.left - end.left;
      const dy = start.top - end.top;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
      if (card.animate) {
        card.animate([{ transform: `translate(${dx}px, ${dy}px)`, zIndex: 20 }, { transform: 'none', zIndex: 20 }],
          { duration: ANIMATION_MS, easing: 'ease-out' });
      }
    });
  }

  function reducedMotion() {
    return window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  }

  function renderStatus() {
    const state = app.state;
    $('#title').textContent = state.name;
    const link = $('#deal-link');
    link.textContent = '';
    if (state.deal !== null) {
      const a = element('a', '', `Deal ${state.deal}`);
      a.href = `#${state.game}/${state.deal}`;
      a.title = 'A link to this deal';
      a.id = 'deal-number';
      link.append(a);
      if (state.proved_winnable) link.append(' (proved winnable)');
    }
    $('#moves').textContent = `Moves: ${state.move_count}`;
    const score = state.score;
    const dollars = `${score.casino_dollars < 0 ? '-' : ''}$${Math.abs(score.casino_dollars)}`;
    $('#score').textContent = score.kind === 'casino'
      ? `Score: ${dollars} (${score.cards}/${score.pack_size} cards)`
      : `Score: ${score.cards}/${score.pack_size} cards (${dollars})`;
    renderWinnable(state.winnable);
    $('#undo').disabled = !state.can_undo || state.recorded;
    $('#redo').disabled = !state.can_redo;
    $('#autoplay').checked = state.autoplay;
    $('#postmortem-button').hidden = !(state.stuck || state.winnable === 'no');
    $('#game-select').value = state.game;
  }

  function renderWinnable(status) {
    const node = $('#winnable');
    const words = {
      yes: 'Still winnable \u2713',
      no: 'Cannot be won from here \u2717',
      unknown: 'Winnable? unknown',
      checking: 'Winnable? checking\u2026',
      won: 'Won!',
    };
    node.textContent = words[status] || '';
    node.className = status;
  }

  function say(text, kind) {
    const node = $('#message');
    node.textContent = text || '';
    node.className = kind || '';
  }

  // ---- State changes ------------------------------------------------------------------------------------

  function setState(state, options) {
    const opts = Object.assign({ animate: true, keepMessage: false }, options);
    const sameGame = app.state && app.state.id === state.id;
    app.state = state;
    app.selection = null;
    if (!sameGame) {
      app.hint = null;
      app.wasWon = state.won;
      $('#postmortem').hidden = true;
      try {
        sessionStorage.setItem(SESSION_KEY, state.id);
      } catch (_) { /* storage refused: a reload starts afresh */ }
    }
    if (!opts.keepMessage) say('');
    render(opts.animate && sameGame);
    if (state.deal !== null && !location.hash.startsWith('#stats')) {
      const hash = `#${state.game}/${state.deal}`;
      if (location.hash !== hash) history.replaceState(null, '', hash);
    }
    pollWinnable();
    if (state.won && !app.wasWon) celebrate();
    app.wasWon = state.won;
  }

  async function act(work) {
    if (app.busy) return;
    app.busy = true;
    try {
      await work();
    } catch (error) {
      say(error.message, 'error');
    } finally {
      app.busy = false;
    }
  }

  function move(mv) {
    return act(async () => {
      const state = await api('POST', sessionPath('/moves'), { move: { from: mv.from, to: mv.to, count: mv.count } });
      setState(state);
      if (state.last.length > 1) say(`Auto-play: ${state.last.slice(1).join(' ')}`);
    }).then(() => {
      app.selection = null;
      decorate();
    });
  }

  function stockMove() {
    const mv = app.state.legal_moves.find((m) => (m.from === 'stock' && m.to === 'waste') || (m.from === 'waste' && m.to === 'stock'));
    if (mv) return move(mv);
    say(app.state.position.stock.length ? 'No draw now.' : 'The stock is empty, and no redeal is left.', 'error');
    return Promise.resolve();
  }

  function undo() {
    return act(async () => setState(await api('POST', sessionPath('/undo'))));
  }

  function redo() {
    return act(async () => setState(await api('POST', sessionPath('/redo'))));
  }

  function restart() {
    return act(async () => setState(await api('POST', sessionPath('/restart'))));
  }

  function currentHint() {
    const hint = app.hint;
    if (hint && hint.id === app.state.id && hint.moveCount === app.state.move_count && hint.position === JSON.stringify(app.state.position)) return hint;
    return null;
  }

  function askHint() {
    return act(async () => {
      say('Thinking\u2026');
      const answer = await api('POST', sessionPath('/hint'), { wait: 10 });
      if (answer.move_count !== app.state.move_count) return;
      app.hint = { move: answer.move, id: app.state.id, moveCount: answer.move_count, position: JSON.stringify(app.state.position) };
      say(answer.status === 'yes' ? `Hint: ${answer.text}` : answer.text, answer.status === 'no' ? 'error' : '');
      renderWinnable(answer.status === 'checking' ? 'checking' : answer.status);
      decorate();
    });
  }

  async function playHint() {
    if (!currentHint()) await askHint();
    const hint = currentHint();
    if (hint && hint.move) await move(hint.move);
  }

  function pollWinnable() {
    clearTimeout(app.pollTimer);
    const state = app.state;
    if (state.winnable !== 'checking') return;
    const id = state.id;
    const count = state.move_count;
    app.pollTimer = setTimeout(async () => {
      if (!app.state || app.state.id !== id || app.state.move_count !== count) return;
      try {
        const answer = await api('GET', `/sessions/${id}/winnable`);
        if (app.state.id !== id || app.state.move_count !== count || answer.move_count !== count) return;
        app.state.winnable = answer.status;
        renderWinnable(answer.status);
        $('#postmortem-button').hidden = !(app.state.stuck || answer.status === 'no');
        pollWinnable();
      } catch (_) { /* the game is gone: nothing to show */ }
    }, 600);
  }

  async function finishCurrent() {
    const state = app.state;
    if (!state || state.recorded || state.move_count === 0) return;
    try {
      await api('POST', sessionPath('/finish'));
    } catch (_) { /* forgotten by the server: nothing to record */ }
  }

  function newGame(game, deal) {
    return act(async () => {
      hideCelebration();
      await finishCurrent();
      const body = { game, autoplay: app.settings.autoplay };
      if (deal) body.deal = /^\d+$/.test(deal) ? Number(deal) : deal;
      else if (app.settings.winnableOnly) body.winnable = true;
      say(body.winnable ? 'Looking for a deal the solver proves winnable\u2026' : '');
      const state = await api('POST', '/sessions', body);
      app.settings.game = state.game;
      saveSettings();
      showGame();
      setState(state, { keepMessage: false });
      history.replaceState(null, '', `#${state.game}/${state.deal}`);
      if (body.winnable && !state.proved_winnable) say('No deal was proved winnable in time; this one may or may not be.');
    });
  }

  // ---- Post-mortem --------------------------------------------------------------------------------------

  function postmortem() {
    clearTimeout(app.postmortemTimer);
    const panel = $('#postmortem');
    panel.hidden = false;
    panel.textContent = 'The solver looks back over the game\u2026';
    const id = app.state.id;
    const count = app.state.move_count;
    const step = async () => {
      if (!app.state || app.state.id !== id || app.state.move_count !== count) return;
      let report;
      try {
        report = await api('GET', `/sessions/${id}/postmortem`);
      } catch (error) {
        panel.textContent = error.message;
        return;
      }
      panel.textContent = '';
      const words = { winnable: 'could be won', lost: 'could not be won', unknown: 'was not decided in time' };
      const lines = [];
      lines.push(report.deal ? `The deal ${words[report.deal]}.` : 'Is the deal winnable? Looking\u2026');
      if (report.now) lines.push(report.now === 'winnable' ? 'The game can still be won from here.' : report.now === 'lost' ? 'It cannot be won from here.' : 'Whether it can still be won is unknown.');
      const fatal = report.fatal;
      if (fatal && fatal.kind === 'found') {
        lines.push(`It was lost by move ${fatal.before + 1}, ${fatal.notation}; after ${fatal.before} moves it could still be won.`);
      } else if (fatal && fatal.kind === 'between') {
        lines.push(`It was lost somewhere after move ${fatal.after === null ? '0' : fatal.after}${fatal.by === null ? '' : ` and by move ${fatal.by}`}; the solver could not say where.`);
      }
      for (const line of lines) panel.append(element('p', '', line));
      if (report.choices.length) panel.append(...choicesShown(report.choices));
      if (fatal && fatal.kind === 'found') {
        const back = element('button', '', `Go back to move ${fatal.before}`);
        back.type = 'button';
        back.addEventListener('click', () => act(async () => {
          let state = app.state;
          while (state.move_count > fatal.before && state.can_undo) {
            state = await api('POST', sessionPath('/undo'));
          }
          setState(state);
        }));
        panel.append(back);
      }
      if (!report.done) app.postmortemTimer = setTimeout(step, 700);
    };
    step();
  }

  /** The choices of base card: which could have won, in a sentence, then each with its outcome, the player's marked. */
  function choicesShown(choices) {
    const short = (c) => `${rankText(c.card)}${SUIT_SYMBOL[c.card[1]]}`;
    const either = (cs) => cs.length === 1 ? short(cs[0]) : `${cs.slice(0, -1).map(short).join(', ')} or ${short(cs[cs.length - 1])}`;
    const yours = choices.find((c) => c.yours);
    const others = choices.filter((c) => !c.yours && c.outcome === 'winnable');
    let sentence;
    if (choices.some((c) => c.outcome === null)) {
      sentence = 'Which choices of base card could have won? Looking\u2026';
    } else if (choices.every((c) => c.outcome === 'lost')) {
      sentence = 'No choice of base card could have won.';
    } else if (!yours) {
      sentence = others.length ? `Choosing ${either(others)} as the base card could win.` : 'No choice of base card was proved winnable.';
    } else if (yours.outcome === 'winnable') {
      sentence = `Your choice, ${short(yours)}, could win${others.length ? `; so could ${either(others)}` : ''}.`;
    } else if (yours.outcome === 'lost') {
      sentence = others.length ? `Choosing ${either(others)} could have won; your choice, ${short(yours)}, could not.` : `Your choice, ${short(yours)}, could not win, and no other was proved winnable.`;
    } else {
      sentence = `Whether your choice, ${short(yours)}, could win was not decided in time${others.length ? `; choosing ${either(others)} could have won` : ''}.`;
    }
    const words = { winnable: 'could win', lost: 'could not win', unknown: 'not decided' };
    const list = element('ul', 'choices');
    list.setAttribute('aria-label', 'The choices of base card');
    for (const c of choices) {
      const item = element('li', c.yours ? 'yours' : '');
      item.dataset.card = c.card;
      item.dataset.outcome = c.outcome || '';
      item.append(element('span', isRed(c.card) ? 'red' : '', short(c)), ` ${c.outcome ? words[c.outcome] : '\u2026'}`);
      if (c.yours) item.append(element('strong', '', ' (your choice)'));
      list.append(item);
    }
    return [element('p', '', sentence), list];
  }

  // ---- The win ------------------------------------------------------------------------------------------

  function celebrate() {
    const box = $('#celebration');
    const state = app.state;
    $('#won-text').textContent = `${state.name}${state.deal !== null ? `, deal ${state.deal}` : ''}, in ${state.move_count} moves.`;
    const confetti = box.querySelector('.confetti');
    confetti.textContent = '';
    if (!reducedMotion()) {
      const symbols = Object.values(SUIT_SYMBOL);
      for (let i = 0; i < 40; i += 1) {
        const piece = element('span', '', symbols[i % 4]);
        piece.style.left = `${Math.random() * 100}%`;
        piece.style.color = i % 2 ? '#c8102e' : '#fffdf7';
        piece.style.animationDelay = `${Math.random() * 0.8}s`;
        confetti.append(piece);
      }
    }
    box.hidden = false;
    $('#won-new').focus();
  }

  function hideCelebration() {
    $('#celebration').hidden = true;
  }

  // ---- Statistics ---------------------------------------------------------------------------------------

  function showGame() {
    $('#stats-view').hidden = true;
    $('#game-view').hidden = false;
  }

  async function showStats() {
    hideCelebration();
    $('#game-view').hidden = true;
    $('#stats-view').hidden = false;
    const body = $('#stats-table tbody');
    body.textContent = '';
    let stats;
    try {
      stats = await api('GET', '/stats');
    } catch (error) {
      $('#stats-note').textContent = error.message;
      return;
    }
    if (!stats.available) {
      $('#stats-note').textContent = `Nothing is recorded: ${stats.error}`;
    } else {
      $('#stats-note').textContent = stats.games.length
        ? `${stats.games.length} finished game${stats.games.length === 1 ? '' : 's'}.`
        : 'No finished games yet.';
    }
    for (const s of stats.summaries) {
      const tr = element('tr');
      tr.dataset.game = s.game;
      const cells = [
        s.rules_name + (s.rules_hash ? ' (rule file)' : ''),
        s.played, s.won, `${(s.win_rate * 100).toFixed(1)} %`, s.current_streak, s.best_streak,
        s.best_seconds === null ? '\u2013' : duration(s.best_seconds),
        s.fewest_moves === null ? '\u2013' : s.fewest_moves,
        money(s.bankroll),
      ];
      cells.forEach((value, i) => {
        const cell = element(i === 0 ? 'th' : 'td', '', String(value));
        if (i === 0) cell.scope = 'row';
        tr.append(cell);
      });
      body.append(tr);
    }
    drawChart(stats.games);
  }

  function duration(seconds) {
    const s = Math.round(seconds);
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  }

  function money(dollars) {
    return `${dollars < 0 ? '-' : ''}$${Math.abs(dollars)}`;
  }

  /** The casino bankroll of each game over the finished games, as an SVG line chart. */
  function drawChart(games) {
    const chart = $('#chart');
    chart.textContent = '';
    if (!games.length) return;
    const ns = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(ns, 'svg');
    const W = 720;
    const H = 280;
    const pad = { left: 60, right: 150, top: 16, bottom: 34 };
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('width', W);
    svg.setAttribute('height', H);
    svg.setAttribute('role', 'img');
    const series = new Map();
    games.forEach((g, i) => {
      const key = `${g.game}${g.rules_hash ? ` ${g.rules_hash}` : ''}`;
      if (!series.has(key)) series.set(key, { name: g.rules_name, points: [{ x: i, y: 0 }], total: 0 });
      const s = series.get(key);
      s.total += g.casino_dollars;
      s.points.push({ x: i + 1, y: s.total });
    });
    const all = [...series.values()].flatMap((s) => s.points.map((p) => p.y));
    const min = Math.min(0, ...all);
    const max = Math.max(0, ...all);
    const span = max - min || 1;
    const x = (v) => pad.left + (v / games.length) * (W - pad.left - pad.right);
    const y = (v) => pad.top + (1 - (v - min) / span) * (H - pad.top - pad.bottom);
    const add = (tag, attrs, text) => {
      const node = document.createElementNS(ns, tag);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
      if (text !== undefined) node.textContent = text;
      svg.append(node);
      return node;
    };
    add('line', { x1: pad.left, x2: W - pad.right, y1: y(0), y2: y(0), stroke: 'rgba(255,255,255,0.5)' });
    add('text', { x: pad.left - 6, y: y(max) + 4, 'text-anchor': 'end' }, money(max));
    if (min < 0) add('text', { x: pad.left - 6, y: y(min) + 4, 'text-anchor': 'end' }, money(min));
    add('text', { x: pad.left - 6, y: y(0) + 4, 'text-anchor': 'end' }, '$0');
    add('text', { x: (pad.left + W - pad.right) / 2, y: H - 8, 'text-anchor': 'middle' }, `finished games (${games.length})`);
    const colours = ['#ffd23f', '#7fd3ff', '#ff8fa3', '#9ff59f', '#c9a0ff', '#ffb36b', '#ffffff', '#6be0c8'];
    const described = [];
    [...series.values()].forEach((s, i) => {
      const colour = colours[i % colours.length];
      add('polyline', {
        points: s.points.map((p) => `${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`).join(' '),
        fill: 'none', stroke: colour, 'stroke-width': 2.5,
      });
      const last = s.points[s.points.length - 1];
      add('circle', { cx: x(last.x), cy: y(last.y), r: 3.5, fill: colour });
      add('rect', { x: W - pad.right + 14, y: pad.top + i * 20, width: 12, height: 12, fill: colour });
      add('text', { x: W - pad.right + 32, y: pad.top + i * 20 + 11 }, `${s.name}: ${money(s.total)}`);
      described.push(`${s.name} ${money(s.total)}`);
    });
    svg.setAttribute('aria-label', `Casino bankroll over ${games.length} finished games: ${described.join(', ')}`);
    chart.append(svg);
  }

  // ---- Rules --------------------------------------------------------------------------------------------

  async function showRules() {
    const dialog = $('#rules-dialog');
    const text = $('#rules-text');
    text.textContent = 'Reading the rules\u2026';
    if (dialog.showModal) dialog.showModal();
    else dialog.setAttribute('open', '');
    try {
      const rules = await api('GET', sessionPath('/rules'));
      $('#rules-title').textContent = rules.name;
      text.textContent = '';
      if (rules.description) text.append(element('p', '', rules.description));
      for (const section of rules.sections) {
        text.append(element('h3', '', section.heading), element('p', '', section.text));
      }
    } catch (error) {
      text.textContent = error.message;
    }
  }

  // ---- Input: clicks, drags, double-clicks, keys --------------------------------------------------------

  function select(pile, count) {
    app.selection = { pile, count };
    decorate();
    const cards = cardsOf(pile);
    const moving = count ? cards.slice(-count) : cards.slice(-1);
    say(`Selected ${moving.map(cardName).join(', ')} from ${pileName(pile)}: now choose where it goes.`);
  }

  function clearSelection() {
    if (!app.selection) return;
    app.selection = null;
    decorate();
    say('');
  }

  /** Sends the selection to `to`: the legal move that fits, or the move as asked, for the engine's reason. */
  function moveSelectionTo(to) {
    const { pile, count } = app.selection;
    const fitting = legalFrom(pile).filter((m) => m.to === to && (!count || m.count === count));
    fitting.sort((a, b) => b.count - a.count);
    const mv = fitting[0] || { from: pile, to, count: count || 1 };
    app.selection = null;
    return move(mv);
  }

  function onPile(pile, card) {
    if (pile === 'stock') {
      clearSelection();
      return stockMove();
    }
    if (app.selection && app.selection.pile !== pile) return moveSelectionTo(pile);
    if (app.selection && app.selection.pile === pile) {
      clearSelection();
      return Promise.resolve();
    }
    const cards = cardsOf(pile);
    if (!cards.length || pile.startsWith('foundation') && !legalFrom(pile).length) {
      say(cards.length ? `Nothing moves from ${pileName(pile)}.` : `${pileName(pile)} is empty.`);
      return Promise.resolve();
    }
    const count = card ? cards.length - Number(card.dataset.index) : null;
    select(pile, count);
    return Promise.resolve();
  }

  board.addEventListener('click', (event) => {
    if (app.justDragged) return;
    const pileNode = event.target.closest('.pile');
    if (!pileNode || !app.state) return;
    const card = event.target.closest('.card[data-card]');
    onPile(pileNode.dataset.pile, card);
  });

  board.addEventListener('dblclick', (event) => {
    const card = event.target.closest('.card[data-card]');
    if (!card || !app.state) return;
    const pile = card.dataset.pile;
    app.selection = null;
    const suitIndex = FOUNDATION_SUITS.indexOf(card.dataset.card[1]);
    const mv = legalFrom(pile).find((m) => m.to.startsWith('foundation:'))
      || { from: pile, to: `foundation:${suitIndex}`, count: 1 };
    move(mv);
  });

  board.addEventListener('keydown', (event) => {
    const pileNode = event.target.closest && event.target.closest('.pile');
    if (!pileNode || event.key !== 'Enter') return;
    event.preventDefault();
    const pile = pileNode.dataset.pile;
    onPile(pile, null).then(() => {
      const again = board.querySelector(`.pile[data-pile="${pile}"]`);
      if (again) again.focus();
    });
  });

  board.addEventListener('pointerdown', (event) => {
    const card = event.target.closest('.card[data-card]');
    if (!card || event.button !== 0 || !app.state) return;
    app.drag = { card, pile: card.dataset.pile, index: Number(card.dataset.index), x: event.clientX, y: event.clientY, started: false };
  });

  window.addEventListener('pointermove', (event) => {
    const drag = app.drag;
    if (!drag) return;
    if (!drag.started) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
      startDrag(drag);
    }
    const rect = drag.origin;
    drag.ghost.style.left = `${rect.left + event.clientX - drag.x}px`;
    drag.ghost.style.top = `${rect.top + event.clientY - drag.y}px`;
    const over = pileAt(event.clientX, event.clientY);
    board.querySelectorAll('.drop-over').forEach((node) => node.classList.remove('drop-over'));
    if (over && over.dataset.pile !== drag.pile) over.classList.add('drop-over');
  });

  window.addEventListener('pointerup', (event) => {
    const drag = app.drag;
    app.drag = null;
    if (!drag || !drag.started) return;
    drag.ghost.remove();
    board.querySelectorAll('.dragging, .drop-over').forEach((node) => node.classList.remove('dragging', 'drop-over'));
    app.justDragged = true;
    setTimeout(() => { app.justDragged = false; }, 0);
    const over = pileAt(event.clientX, event.clientY);
    if (!over || over.dataset.pile === drag.pile) return;
    const count = cardsOf(drag.pile).length - drag.index;
    app.selection = { pile: drag.pile, count };
    moveSelectionTo(over.dataset.pile);
  });

  window.addEventListener('pointercancel', () => {
    const drag = app.drag;
    app.drag = null;
    if (drag && drag.started) {
      drag.ghost.remove();
      render(false);
    }
  });

  function startDrag(drag) {
    drag.started = true;
    app.selection = null;
    decorate();
    const moving = [...board.querySelectorAll(`.card[data-pile="${drag.pile}"]`)]
      .filter((card) => Number(card.dataset.index) >= drag.index);
    const first = drag.card.getBoundingClientRect();
    drag.origin = first;
    const ghost = element('div', 'drag-ghost');
    ghost.style.left = `${first.left}px`;
    ghost.style.top = `${first.top}px`;
    for (const card of moving) {
      const rect = card.getBoundingClientRect();
      const copy = card.cloneNode(true);
      copy.style.left = `${rect.left - first.left}px`;
      copy.style.top = `${rect.top - first.top}px`;
      ghost.append(copy);
      card.classList.add('dragging');
    }
    document.body.append(ghost);
    drag.ghost = ghost;
  }

  function pileAt(x, y) {
    for (const node of document.elementsFromPoint(x, y)) {
      const pile = node.closest && node.closest('#board .pile');
      if (pile) return pile;
    }
    return null;
  }

  document.addEventListener('keydown', (event) => {
    const target = event.target;
    const typing = target.closest && target.closest('input, select, textarea, dialog');
    if (event.key === 'Escape') {
      clearSelection();
      hideCelebration();
      return;
    }
    if (typing || !app.state || $('#game-view').hidden) return;
    const onControl = target.closest && target.closest('button, a');
    const key = event.key.toLowerCase();
    const ctrl = event.ctrlKey || event.metaKey;
    if (ctrl && key === 'z') {
      event.preventDefault();
      undo();
    } else if (ctrl && key === 'y') {
      event.preventDefault();
      redo();
    } else if (ctrl || event.altKey) {
      return;
    } else if ((key === ' ' && !onControl) || key === 'd') {
      event.preventDefault();
      stockMove();
    } else if (key === 'u') {
      undo();
    } else if (key === 'r') {
      redo();
    } else if (key === 'h') {
      askHint();
    } else if (key === 'p') {
      playHint();
    } else if (key === 'n') {
      newGame($('#game-select').value, '');
    }
  });

  // ---- Controls -----------------------------------------------------------------------------------------

  $('#new-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const deal = $('#deal-input').value.trim();
    $('#deal-input').value = '';
    newGame($('#game-select').value, deal);
  });
  $('#game-select').addEventListener('change', () => newGame($('#game-select').value, ''));
  $('#winnable-only').addEventListener('change', (event) => {
    app.settings.winnableOnly = event.target.checked;
    saveSettings();
  });
  $('#autoplay').addEventListener('change', (event) => {
    app.settings.autoplay = event.target.checked;
    saveSettings();
    if (app.state) {
      act(async () => setState(await api('PUT', sessionPath('/autoplay'), { on: event.target.checked })));
    }
  });
  $('#undo').addEventListener('click', undo);
  $('#redo').addEventListener('click', redo);
  $('#hint').addEventListener('click', askHint);
  $('#play-hint').addEventListener('click', playHint);
  $('#restart').addEventListener('click', restart);
  $('#rules-button').addEventListener('click', showRules);
  $('#postmortem-button').addEventListener('click', postmortem);
  $('#won-new').addEventListener('click', () => newGame(app.state.game, ''));
  $('#won-close').addEventListener('click', hideCelebration);
  $('#won-stats').addEventListener('click', hideCelebration);
  $('#back-to-game').addEventListener('click', (event) => {
    event.preventDefault();
    showGameFromHash();
  });
  window.addEventListener('resize', () => {
    if (app.state && !$('#game-view').hidden) render(false);
  });

  // ---- Where the page is: #GAME/NUMBER, #stats ----------------------------------------------------------

  function parseHash() {
    const hash = decodeURIComponent(location.hash.replace(/^#/, ''));
    if (hash === 'stats') return { view: 'stats' };
    const match = /^([a-z0-9-]+)\/(ms)?(\d+)$/i.exec(hash);
    if (match) return { view: 'game', game: match[1], deal: (match[2] || '') + match[3] };
    const game = /^([a-z0-9-]+)$/i.exec(hash);
    if (game) return { view: 'game', game: game[1], deal: '' };
    return { view: 'game' };
  }

  async function showGameFromHash() {
    const where = parseHash();
    if (where.view === 'stats') {
      showStats();
      return;
    }
    showGame();
    if (where.game && (!app.state || app.state.game !== where.game || (where.deal && String(app.state.deal) !== where.deal))) {
      await newGame(where.game, where.deal);
    } else if (app.state) {
      history.replaceState(null, '', `#${app.state.game}/${app.state.deal}`);
      render(false);
    } else {
      await firstGame();
    }
  }

  window.addEventListener('hashchange', showGameFromHash);

  // This tab's game, if the server still holds it; null otherwise.
  async function storedSession() {
    let stored = null;
    try {
      stored = sessionStorage.getItem(SESSION_KEY);
    } catch (_) { /* no storage */ }
    if (!stored) return null;
    try {
      return await api('GET', `/sessions/${stored}`);
    } catch (_) {
      return null; // forgotten by the server
    }
  }

  async function firstGame() {
    const state = await storedSession();
    if (state) {
      setState(state, { animate: false });
      return;
    }
    try {
      setState(await api('POST', '/sessions', { resume: true }), { animate: false });
      say('The game left unfinished is back.');
      return;
    } catch (_) { /* nothing saved */ }
    await newGame(app.settings.game || 'canfield', '');
  }

  async function start() {
    try {
      app.games = await api('GET', '/games');
    } catch (error) {
      say(error.message, 'error');
      return;
    }
    const selectNode = $('#game-select');
    const main = app.games.filter((g) => g.main);
    const extra = app.games.filter((g) => !g.main);
    for (const g of main) selectNode.append(new Option(g.name, g.id));
    if (extra.length) {
      const group = element('optgroup');
      group.label = 'Other programs\u2019 variants';
      for (const g of extra) group.append(new Option(`${g.name} (${g.id})`, g.id));
      selectNode.append(group);
    }
    selectNode.value = app.settings.game;
    $('#winnable-only').checked = app.settings.winnableOnly;
    $('#autoplay').checked = app.settings.autoplay;
    const where = parseHash();
    if (where.view === 'stats') {
      await firstGame();
      showStats();
      return;
    }
    if (where.game) {
      const state = await storedSession();
      if (state && state.game === where.game && String(state.deal) === where.deal) {
        setState(state, { animate: false });
        return;
      }
      await newGame(where.game, where.deal);
      return;
    }
    await firstGame();
  }

  start();
})();
