/**
 * When the isolated frame lets a press count (frame/visibility.ts), as plain functions: the watch's
 * record of since when the checkout has been visible and unmoved, and the judgement of a press by
 * what the screen showed. (The red team's motions in Chromium: test/e2e/hostile.test.ts.)
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CONTEXT_PX, STILL_MS, judge, moved, watched, type Box, type Press, type Watched } from '../src/frame/visibility.js';

const box = (top: number, bottom: number, left = 0, right = 380): Box => ({ top, bottom, left, right });
const SHOWN = box(0, 600);
const none: Watched = { since: null, last: null };

/** A press at 1000 on the Pay button of a checkout 580 tall, all of it on the screen and still since 0. */
const press = (change: Partial<Press> = {}): Press => ({
  at: 1_000,
  watched: { since: 0, last: { visible: true, shown: SHOWN } },
  fresh: { visible: true, shown: SHOWN },
  control: box(500, 544, 13, 146),
  summary: box(53, 113, 13, 367),
  statesAmount: true,
  height: 580,
  ...change,
});

describe('the watch', () => {
  it('keeps the time the checkout began to show what it shows, while nothing changes', () => {
    let w = watched(none, { visible: true, shown: SHOWN }, 100);
    assert.equal(w.since, 100);
    w = watched(w, { visible: true, shown: box(1, 601) }, 200);
    assert.equal(w.since, 100, 'a pixel is rounding, not a move');
    w = watched(w, { visible: true, shown: box(40, 600) }, 300);
    assert.equal(w.since, 300, 'another part of it on the screen: it moved');
  });

  it('forgets it while the browser says it is not visible (covered, faded, transformed), and starts again once it is', () => {
    let w = watched(none, { visible: true, shown: SHOWN }, 100);
    w = watched(w, { visible: false, shown: SHOWN }, 200);
    assert.equal(w.since, null);
    w = watched(w, { visible: true, shown: SHOWN }, 950);
    assert.equal(w.since, 950, 'uncovered: still from then on, not from before the cover');
    w = watched(w, { visible: true, shown: null }, 1_000);
    assert.equal(w.since, null, 'off the screen');
  });

  it('starts again when the ruler saw it move, and stays forgotten while it is not visible', () => {
    const w = watched(none, { visible: true, shown: SHOWN }, 100);
    assert.equal(moved(w, 700).since, 700);
    assert.equal(moved({ since: null, last: null }, 700).since, null);
  });
});

describe('a press', () => {
  it('counts when everything shows, still for STILL_MS', () => {
    assert.equal(judge(press()), null);
    assert.equal(judge(press({ at: STILL_MS })), null, 'exactly STILL_MS');
  });

  it('is unsettled within STILL_MS of the checkout coming into view, moving or being uncovered, or without a watch', () => {
    assert.equal(judge(press({ at: STILL_MS - 1 })), 'unsettled');
    assert.equal(judge(press({ watched: { since: 940, last: { visible: true, shown: SHOWN } } })), 'unsettled', 'uncovered 60 ms before');
    assert.equal(judge(press({ watched: none })), 'unsettled', 'never seen visible');
  });

  it('is refused as hidden when the browser says the checkout is not visible at the press, whatever the watch saw', () => {
    assert.equal(judge(press({ fresh: { visible: false, shown: SHOWN } })), 'hidden');
    assert.equal(judge(press({ fresh: { visible: true, shown: null } })), 'hidden');
  });

  it('is refused as hidden when the pressed control is not whole on the screen', () => {
    assert.equal(judge(press({ fresh: { visible: true, shown: box(0, 520) } })), 'hidden');
    assert.equal(judge(press({ fresh: { visible: true, shown: box(0, 600, 60, 380) } })), 'hidden', 'its left cut off');
  });

  it('is refused as hidden when cropped down to its button, though the button states the amount', () => {
    const crop = box(490, 554);
    assert.equal(judge(press({ fresh: { visible: true, shown: crop }, watched: { since: 0, last: { visible: true, shown: crop } } })), 'hidden');
  });

  it('counts without the amount and payee on the screen only when the control states the amount, with CONTEXT_PX of the checkout around it', () => {
    const tall = { height: 1_100, control: box(1_000, 1_044, 13, 146) };
    const lower = (top: number) => ({ visible: true, shown: box(top, 1_100) });
    assert.equal(
      judge(press({ ...tall, fresh: lower(500), watched: { since: 0, last: lower(500) } })),
      null,
      'a long account list: Pay €18.50 with the accounts above',
    );
    assert.equal(judge(press({ ...tall, fresh: lower(1_100 - CONTEXT_PX + 10) })), 'hidden', 'too little of it around the button');
    assert.equal(judge(press({ ...tall, statesAmount: false, fresh: lower(500) })), 'hidden', 'a control that does not state the amount');
    assert.equal(judge(press({ ...tall, summary: null, statesAmount: false, fresh: lower(0) })), 'hidden', 'no summary drawn, no amount on the control');
  });
});
