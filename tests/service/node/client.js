// Node.js client test of mahjong.v1.MahjongRules.
// Usage: node client.js <port>   (server on 127.0.0.1:<port>, plaintext)
// Loads the .proto files from the repository's protos/ directory at run time, calls Score
// (a Sichuan hand and a Guangdong hand), Waits,
// ValidateMove, DescribeRuleset and ScoreStream, checks the answers, and exits non-zero on
// any failure.
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
