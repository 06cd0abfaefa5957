// Node.js client test of mahjong.v1.MahjongRules.
// Usage: node client.js <port>   (server on 127.0.0.1:<port>, plaintext)
// Loads the .proto files from the repository's protos/ directory at run time, calls Score
// (Sichuan, Guangdong, and Hangzhou and Wuhan with their wild tiles), Waits, ValidateMove,
// LegalMoves, Settle, DescribeRuleset, ScoreBatch and ScoreStream, checks the answers (the
// expected values come from the rules' worked cases, tests/cases/*.jsonl), and exits non-zero
// on any failure.
'use strict';

const path = require('path');
const assert = require('assert');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const port = process.argv[2];
if (!port) {
  console.error('usage: node client.js <port>');
  process.exit(2);
}

const protoRoot = path.resolve(__dirname, '..', '..', '..', 'protos');
const def = protoLoader.loadSync('mahjong/v1/mahjong_rules.proto', {
  includeDirs: [protoRoot],
  keepCase: true, // field names as in the proto (lower_snake)
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
});
const mahjong = grpc.loadPackageDefinition(def).mahjong.v1;
const client = new mahjong.MahjongRules(`127.0.0.1:${port}`, grpc.credentials.createInsecure());

function unary(method, request) {
  return new Promise((resolve, reject) => {
    const deadline = new Date(Date.now() + 10000);
    client[method](request, { deadline }, (err, response) => (err ? reject(err) : resolve(response)));
  });
}

const checks = [];
function check(name, fn) {
  checks.push({ name, fn });
}

check('Score (sichuan): pinghu + gen on a discard, one payment per payer', async () => {
  const r = await unary('Score', {
    ruleset: 'sichuan',
    hand: { text: '111m123m456p789p55p' },
    win_tile: { text: '5p' },
    context: { sichuan: { winner: 0, discarder: 3 } },
  });
  const res = r.result;
  assert.strictEqual(res.value, 1);
  assert.strictEqual(res.unit, 'VALUE_UNIT_FAN');
  assert.strictEqual(res.multiplier, '2');
  const ids = res.patterns.map((p) => `${p.id}:${p.value}`).sort();
  assert.deepStrictEqual(ids, ['gen:1', 'pinghu:0']);
  assert.strictEqual(res.payments.length, 1);
  assert.strictEqual(res.payments[0].from_seat, 3);
  assert.strictEqual(res.payments[0].amount, '2');
  assert.strictEqual(res.liable, '');
});

check('Score (sichuan): structured hand and typed options (cap)', async () => {
  const ids = [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]; // 11223344556677m: qingqidui, fan 4
  const r = await unary('Score', {
    ruleset: 'sichuan',
    hand: { structured: { concealed_tile_ids: ids, melds: [] } },
    win_tile: { id: 6 },
    options: { preset: 'chengdu', sichuan: { cap_fan: { value: 3 }, zimo_bonus: 'ZIMO_BONUS_FAN' } },
  });
  assert.strictEqual(r.result.value, 3);
  assert.strictEqual(r.result.value_uncapped, 4);
  assert.strictEqual(r.result.patterns[0].id, 'qingqidui');
});

check('Score (guangdong): honours, winds and a relative discarder', async () => {
  const r = await unary('Score', {
    ruleset: 'guangdong',
    hand: { text: '123m456m789m111z55p' },
    win_tile: { text: '5p' },
    context: {
      guangdong: {
        seat_wind: 'WIND_EAST',
        round_wind: 'WIND_EAST',
        winner: 0,
        discarder: 'RELATIVE_SEAT_LEFT',
      },
    },
  });
  const res = r.result;
  assert.strictEqual(res.unit, 'VALUE_UNIT_FAN');
  assert.ok(res.patterns.length > 0);
  assert.ok(res.payments.length >= 1);
  assert.ok(res.payments.every((p) => p.to_seat === 0));
  assert.strictEqual(res.payments[0].from_seat, 3); // left of seat 0 (上家) is seat 3
  assert.deepStrictEqual(res.decomposition.pung_tile_ids, [27]); // the east pung
  const d = await unary('DescribeRuleset', { ruleset: 'guangdong' });
  assert.ok(d.claims.includes('chi'));
});

check('Score: errors carry the engine code, no or another rule set is refused', async () => {
  await assert.rejects(
    unary('Score', { ruleset: 'sichuan', hand: { text: '11111m234m456p789p' }, win_tile: { text: '1m' } }),
    (err) => err.code === grpc.status.INVALID_ARGUMENT && /too_many_copies/.test(err.details),
  );
  await assert.rejects( // no default rule set
    unary('Score', { hand: { text: '123m456m789m234p55p' }, win_tile: { text: '5p' } }),
    (err) => err.code === grpc.status.INVALID_ARGUMENT && /missing_ruleset/.test(err.details),
  );
  await assert.rejects(
    unary('Score', { ruleset: 'nosuch', hand: { text: '55p' }, win_tile: { text: '5p' } }),
    (err) => err.code === grpc.status.NOT_FOUND,
  );
  await assert.rejects(
    unary('Score', {
      ruleset: 'sichuan',
      hand: { text: '123m456m789m234p55p' },
      win_tile: { text: '5p' },
      context: { guangdong: { seat_wind: 'WIND_EAST' } },
    }),
    (err) => err.code === grpc.status.INVALID_ARGUMENT && /bad_context/.test(err.details),
  );
});

// Hangzhou: in baiban mode the 白板 (5z) are the 财神, the wilds.
const HZ_OPTIONS = { hangzhou: { caishen_mode: 'CAISHEN_MODE_BAIBAN' } };

function sortedPatterns(result) {
  return result.patterns.map((p) => `${p.id}:${p.value}`).sort();
}

function paidBy(result) {
  return Object.fromEntries(result.payments.map((p) => [p.from_seat, Number(p.amount)]));
}

check('Score (hangzhou): a wild 白板 makes 暴头, one 飘 before it: 财飘 x4 (HZ-03)', async () => {
  const r = await unary('Score', {
    ruleset: 'hangzhou',
    hand: { text: '123m456p789s111z5z7p' },
    win_tile: { text: '7p' },
    self_drawn: true,
    context: { hangzhou: { piao_count: 1, winner: 0 } },
    options: HZ_OPTIONS,
  });
  const res = r.result;
  assert.deepStrictEqual(sortedPatterns(res), ['caipiao:2']);
  assert.strictEqual(res.multiplier, '4');
  assert.strictEqual(res.unit, 'VALUE_UNIT_FAN');
  assert.deepStrictEqual(paidBy(res), { 1: 4, 2: 4, 3: 4 }); // each other seat pays the stake x4
  assert.ok(res.payments.every((p) => p.to_seat === 0));
  // 爆头: the drawn 7p pairs with a wild 白板; 123m 456p 789s 111z as they stand
  assert.strictEqual(res.decomposition.pair_tile_id, 15);
  assert.deepStrictEqual(res.decomposition.chow_tile_ids, [0, 12, 24]);
  assert.deepStrictEqual(res.decomposition.pung_tile_ids, [27]);
});

check('Score (hangzhou): refusals carry the rule set\'s code (平庄 HZ-11, wild in a meld HZ-34)', async () => {
  await assert.rejects(
    unary('Score', {
      ruleset: 'hangzhou',
      hand: { text: '123m456m789p234s55s' },
      win_tile: { text: '5s' },
      context: { hangzhou: { dealer: 'POSITION_LEFT', dealer_streak: 0, discarder: 'RELATIVE_SEAT_ACROSS' } },
      options: HZ_OPTIONS,
    }),
    (err) => err.code === grpc.status.INVALID_ARGUMENT && /^pingzhuang/.test(err.details),
  );
  await assert.rejects(
    unary('Score', {
      ruleset: 'hangzhou',
      hand: { text: '123m456p789s77s peng:555z' },
      win_tile: { text: '7s' },
      self_drawn: true,
      options: HZ_OPTIONS,
    }),
    (err) => err.code === grpc.status.INVALID_ARGUMENT && /^wild_in_meld/.test(err.details),
  );
});

check('Waits (hangzhou): the 34 kinds that win, the wild 5z included', async () => {
  const r = await unary('Waits', { ruleset: 'hangzhou', hand: { text: '123m456m789p234s5s' }, options: HZ_OPTIONS });
  assert.deepStrictEqual(r.waits.map((w) => w.tile), ['2s', '5s', '5z']);
  assert.ok(r.waits.every((w) => w.self_drawn_patterns[0].id === 'pinghu'));
});

check('ValidateMove / LegalMoves (hangzhou): no discard win before the dealer kept the deal twice', async () => {
  const state = (hand, streak) => ({
    seat: 0,
    hand: { text: hand },
    phase: 'claim',
    pending_tile: { text: '5s' },
    pending_from_seat: 3,
    dealer_seat: 0,
    hangzhou: { dealer_streak: streak },
  });
  const early = await unary('ValidateMove', {
    ruleset: 'hangzhou', state: state('123m456m789p234s5s', 0), move: { kind: 'hu' }, options: HZ_OPTIONS,
  });
  assert.strictEqual(early.legal, false);
  assert.strictEqual(early.reason, 'pingzhuang');
  const later = await unary('ValidateMove', {
    ruleset: 'hangzhou', state: state('123m456m789p234s5s', 2), move: { kind: 'hu' }, options: HZ_OPTIONS,
  });
  assert.strictEqual(later.legal, true);
  const moves = await unary('LegalMoves', {
    ruleset: 'hangzhou', state: state('55s123m456m789p23s', 0), options: HZ_OPTIONS,
  });
  const texts = moves.moves.map((m) => m.text);
  assert.ok(texts.includes('peng 5s') && texts.includes('pass') && !texts.includes('hu'), texts);
});

check('Settle (hangzhou): a self-drawn win, each pays, the deal passes to the winner', async () => {
  const r = await unary('Settle', {
    ruleset: 'hangzhou',
    dealer_seat: 1,
    options: HZ_OPTIONS,
    events: [
      { kong: { kind: 'KONG_KIND_ANGANG', seat: 2, tile: { text: '6m' } } },
      { win: { seat: 2, hand: { text: '123m456p789s111z5z7p' }, win_tile: { text: '7p' }, self_drawn: true } },
    ],
  });
  assert.deepStrictEqual(r.totals, ['-2', '-2', '6', '-2']);
  assert.ok(r.payments.every((p) => p.to_seat === 2 && p.amount === '2' && p.event_index === 1));
  assert.deepStrictEqual(r.winner_seats, [2]);
  assert.strictEqual(r.next_dealer_seat, 2);
});

check('DescribeRuleset (hangzhou): unit, the 财神 mode choices, patterns', async () => {
  const d = await unary('DescribeRuleset', { ruleset: 'hangzhou' });
  assert.strictEqual(d.name, 'hangzhou');
  assert.strictEqual(d.unit, 'VALUE_UNIT_FAN');
  const mode = d.options.find((o) => o.name === 'caishen_mode');
  assert.deepStrictEqual(mode.choices_json.map((c) => JSON.parse(c)).sort(), ['baiban', 'flip']);
  assert.ok(d.patterns.some((p) => p.id === 'qidui'));
  assert.ok(d.reason_codes.some((c) => c.id === 'pingzhuang'));
});

// Wuhan: the 赖子 (here 9p) is wild; 红中 (7z) is the 痞子, laid aside as a kong.
const WH_CONTEXT = (extra) => ({ wuhan: { laizi: { text: '9p' }, winner: 0, ...extra } });

check('Score (wuhan): the 赖子 stands in for the pair: 软胡 (WH-02); 硬胡 with a melding payer (WH-01)', async () => {
  const soft = (await unary('Score', {
    ruleset: 'wuhan',
    hand: { text: '456p789s345s5m9p chi:123m' },
    win_tile: { text: '5m' },
    self_drawn: true,
    context: WH_CONTEXT({}),
  })).result;
  assert.deepStrictEqual(sortedPatterns(soft), ['ruanhu:1', 'xiaohu:1']);
  assert.strictEqual(soft.unit, 'VALUE_UNIT_POINTS');
  assert.strictEqual(soft.value, 2);
  assert.deepStrictEqual(paidBy(soft), { 1: 2, 2: 2, 3: 2 });
  const hard = (await unary('Score', {
    ruleset: 'wuhan',
    hand: { text: '456p789s345s55m chi:123m' },
    win_tile: { text: '5m' },
    self_drawn: true,
    context: WH_CONTEXT({ payer_melds: { left: 'peng:111s angang:2222p' } }),
  })).result;
  assert.deepStrictEqual(sortedPatterns(hard), ['xiaohu:1', 'yinghu:2']);
  assert.deepStrictEqual(paidBy(hard), { 3: 32, 2: 4, 1: 4 }); // left of seat 0 is seat 3
  await assert.rejects( // two 赖子 as wilds in a 小胡 (WH-06)
    unary('Score', {
      ruleset: 'wuhan',
      hand: { text: '456p789s34s5m99p chi:123m' },
      win_tile: { text: '5m' },
      self_drawn: true,
      context: WH_CONTEXT({}),
    }),
    (err) => err.code === grpc.status.INVALID_ARGUMENT && /^not_a_win/.test(err.details),
  );
});

check('Waits (wuhan): the 2/5/8 pair tile, and the 赖子 itself', async () => {
  const r = await unary('Waits', {
    ruleset: 'wuhan', hand: { text: '456p789s345s5m chi:123m' }, context: WH_CONTEXT({}),
  });
  assert.deepStrictEqual(r.waits.map((w) => w.tile), ['5m', '9p']);
  assert.deepStrictEqual(r.waits.map((w) => w.self_drawn_patterns.map((p) => p.id).sort()),
    [['xiaohu', 'yinghu'], ['ruanhu', 'xiaohu']]);
});

check('ValidateMove / LegalMoves (wuhan): the 痞子 is laid aside; the 海底 allows hu or pass', async () => {
  const state = {
    seat: 0, hand: { text: '123m456p78s11z7z9p55m' }, phase: 'turn', drawn_tile: { text: '5m' },
    wuhan: { laizi: { text: '9p' } },
  };
  const discard = await unary('ValidateMove', { ruleset: 'wuhan', state, move: { kind: 'discard', tiles: [{ text: '7z' }] } });
  assert.strictEqual(discard.legal, false);
  assert.strictEqual(discard.reason, 'lay_aside');
  const kong = await unary('ValidateMove', { ruleset: 'wuhan', state, move: { kind: 'pizigang', tiles: [{ text: '7z' }] } });
  assert.strictEqual(kong.legal, true);
  const haidi = await unary('LegalMoves', {
    ruleset: 'wuhan',
    state: { ...state, hand: { text: '456p789s345s55m chi:123m' }, wall_count: 3 },
  });
  assert.deepStrictEqual(haidi.moves.map((m) => m.kind).sort(), ['hu', 'pass']);
});

check('Settle (wuhan): a self-drawn win, the melding payer pays x8', async () => {
  const r = await unary('Settle', {
    ruleset: 'wuhan',
    dealer_seat: 1,
    events: [{
      win: {
        seat: 2,
        hand: { text: '456p789s345s55m chi:123m' },
        win_tile: { text: '5m' },
        self_drawn: true,
        context: { wuhan: { laizi: { text: '9p' }, payer_melds: { left: 'peng:111s angang:2222p' } } },
      },
    }],
  });
  assert.deepStrictEqual(r.totals, ['-4', '-32', '40', '-4']);
  assert.deepStrictEqual(r.winner_seats, [2]);
  assert.strictEqual(r.next_dealer_seat, 2);
});

check('DescribeRuleset (wuhan): points, the 痞子 choices, 小胡 and 大胡', async () => {
  const d = await unary('DescribeRuleset', { ruleset: 'wuhan' });
  assert.strictEqual(d.unit, 'VALUE_UNIT_POINTS');
  const pizi = d.options.find((o) => o.name === 'pizi');
  assert.deepStrictEqual(pizi.choices_json.map((c) => JSON.parse(c)).sort(), ['hongzhong', 'hongzhong_facai']);
  assert.ok(d.patterns.some((p) => p.id === 'xiaohu') && d.patterns.some((p) => p.id === 'pengpenghu'));
});

check('ScoreBatch (hangzhou, wuhan): outcomes in order, ids echoed, a bad item answered alone', async () => {
  const hz = await unary('ScoreBatch', {
    ruleset: 'hangzhou',
    options: HZ_OPTIONS,
    items: [
      { id: 'HZ-01', hand: { text: '123m456m789p234s55s' }, win_tile: { text: '5s' }, self_drawn: true },
      { id: 'HZ-34', hand: { text: '123m456p789s77s peng:555z' }, win_tile: { text: '7s' }, self_drawn: true },
      { id: 'HZ-08', hand: { text: '11m33m55m22p44p66p77z' }, win_tile: { text: '7z' }, self_drawn: true },
    ],
  });
  assert.deepStrictEqual(hz.outcomes.map((o) => o.id), ['HZ-01', 'HZ-34', 'HZ-08']);
  assert.deepStrictEqual(sortedPatterns(hz.outcomes[0].result), ['pinghu:0']);
  assert.strictEqual(hz.outcomes[1].outcome, 'error');
  assert.strictEqual(hz.outcomes[1].error.code, 'wild_in_meld');
  assert.deepStrictEqual(sortedPatterns(hz.outcomes[2].result), ['qidui:1']);
  assert.strictEqual(hz.outcomes[2].result.multiplier, '2');
  const ctx = { wuhan: { laizi: { text: '9p' } } };
  const wh = await unary('ScoreBatch', {
    ruleset: 'wuhan',
    items: [
      { id: 'WH-03', hand: { text: '222m555m88m peng:333m peng:777m' }, win_tile: { text: '8m' },
        context: { wuhan: { laizi: { text: '9p' }, discarder: 'RELATIVE_SEAT_LEFT' } } },
      { id: 'WH-10', hand: { text: '456p789s34s55m7z chi:123m' }, win_tile: { text: '5m' }, self_drawn: true, context: ctx },
      { id: 'WH-07', hand: { text: '111m444p777s99p peng:222s' }, win_tile: { text: '1m' }, self_drawn: true, context: ctx },
    ],
  });
  assert.deepStrictEqual(wh.outcomes.map((o) => o.id), ['WH-03', 'WH-10', 'WH-07']);
  assert.deepStrictEqual(sortedPatterns(wh.outcomes[0].result), ['pengpenghu:10', 'qingyise:10', 'yinghu:2']);
  assert.strictEqual(wh.outcomes[0].result.value, 80);
  assert.strictEqual(wh.outcomes[1].error.code, 'pizi_in_hand');
  assert.deepStrictEqual(sortedPatterns(wh.outcomes[2].result), ['pengpenghu:10', 'yinghu:2']);
});

check('Waits: tiles, values and unseen copies', async () => {
  const r = await unary('Waits', {
    ruleset: 'sichuan',
    hand: { text: '123m456m789m234p5p' },
    visible_tile_ids: [13, 13],
  });
  assert.deepStrictEqual(
    r.waits.map((w) => [w.tile, w.tile_id, w.unseen]),
    [['2p', 10, 3], ['5p', 13, 1]],
  );
  assert.strictEqual(r.waits[1].discard_patterns[0].id, 'pinghu');
  assert.strictEqual(r.max_discard_value, 0);
});

check('ValidateMove: legal discard, refused by the Sichuan part of the view (缺门)', async () => {
  const state = {
    seat: 0,
    hand: { text: '123m456m789m234p5p9s' },
    phase: 'turn',
    wall_count: 40,
    sichuan: { missing_suit: 'SUIT_S' },
  };
  const bad = await unary('ValidateMove', {
    ruleset: 'sichuan',
    state,
    move: { kind: 'discard', tiles: [{ text: '1m' }] },
  });
  assert.strictEqual(bad.legal, false);
  assert.strictEqual(bad.reason, 'missing_suit_first');
  const ok = await unary('ValidateMove', {
    ruleset: 'sichuan',
    state,
    move: { kind: 'discard', tiles: [{ text: '9s' }] },
  });
  assert.strictEqual(ok.legal, true);
  assert.strictEqual(ok.reason, '');
});

check('DescribeRuleset: unit, claims, typed presets', async () => {
  const d = await unary('DescribeRuleset', { ruleset: 'sichuan' });
  assert.strictEqual(d.unit, 'VALUE_UNIT_FAN');
  assert.ok(!d.claims.includes('chi'));
  const modern = d.presets.find((p) => p.name === 'modern');
  assert.strictEqual(modern.options.sichuan.cap_fan.value, '3');
  assert.ok(d.options.some((o) => o.name === 'cap_fan' && o.none_allowed));
});

check('ScoreStream: one response per message, in order, ids echoed', async () => {
  const hands = [
    ['123m456m789m234p55p', '5p', 0],
    ['11122233344455m', '5m', 3],
    ['11m33m55m22p44p66p88p', '8p', 2],
  ];
  const messages = [1, 5, 0, 40].map((n, m) => ({
    ruleset: 'sichuan',
    items: Array.from({ length: n }, (_, i) => ({
      id: `m${m}-${i}`,
      hand: { text: hands[i % 3][0] },
      win_tile: { text: hands[i % 3][1] },
    })),
  }));
  const call = client.ScoreStream({ deadline: new Date(Date.now() + 20000) });
  const replies = [];
  const done = new Promise((resolve, reject) => {
    call.on('data', (r) => replies.push(r));
    call.on('error', reject);
    call.on('end', resolve);
  });
  for (const m of messages) call.write(m);
  call.end();
  await done;
  assert.strictEqual(replies.length, messages.length);
  replies.forEach((r, m) => {
    assert.deepStrictEqual(
      r.outcomes.map((o) => o.id),
      messages[m].items.map((i) => i.id),
    );
    r.outcomes.forEach((o, i) => {
      assert.strictEqual(o.outcome, 'result');
      assert.strictEqual(o.result.value, hands[i % 3][2]);
    });
  });
});

(async () => {
  let passed = 0;
  let failed = 0;
  for (const { name, fn } of checks) {
    try {
      await fn();
      passed += 1;
      console.log(`ok - ${name}`);
    } catch (err) {
      failed += 1;
      console.log(`not ok - ${name}\n  ${err && err.stack ? err.stack : err}`);
    }
  }
  client.close();
  console.log(`node client: ${passed} checks passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
})();
