#!/usr/bin/env node
// A random player for `referee match` (spec/protocol.md), in node with no packages.
// It plays a uniformly random legal card, passes random cards and takes the first moon choice.
// Its legality covers the options of the bundled rulesets (cancellation, standard). Run it with
// `referee match "node examples/bots/random_bot.js" ...`; an argument seeds its choices.
"use strict";
const readline = require("readline");

let seed = Number(process.argv[2] || Date.now()) >>> 0;
function random() { // mulberry32: small, seeded, good enough for a random player
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (items) => items[Math.floor(random() * items.length)];
const suit = (card) => card[card.length - 1];
const points = (card) => suit(card) === "H" || card === "QS";

let rules = {}, hand = [], broken = false, trickNo = 1, played = 0;

function legal(led) {
  // A layer removes the cards it restricts when the hand holds one of its witnesses.
  const first = trickNo === 1, layers = [];
  if (led === null) {
    if (first && rules.first_leader === "two_of_clubs" && hand.includes("2C"))
      layers.push([(c) => c !== "2C", () => true]);
    if (first && !rules.first_lead_points)
      layers.push([points, rules.first_lead_fallback ? (c) => !points(c) : () => true]);
    if (rules.must_break_hearts && !broken) {
      const queen = rules.lead_hearts_instead_of_queen;
      layers.push([(c) => suit(c) === "H", (c) => suit(c) !== "H" && !(queen && c === "QS")]);
    }
  } else {
    const s = suit(led);
    layers.push([(c) => suit(c) !== s, (c) => suit(c) === s]);
    if (first && !rules.first_trick_points) {
      if (rules.first_trick_points_whole_hand) {
        layers.push([points, (c) => !points(c)]);
      } else {
        if (!rules.first_trick_follow_points)
          layers.push([(c) => points(c) && suit(c) === s, (c) => suit(c) === s && !points(c)]);
        layers.push([(c) => points(c) && suit(c) !== s, (c) => !points(c)]);
      }
    }
  }
  let options = [...new Set(hand)];
  for (const [restricted, witness] of layers)
    if (hand.some(witness)) options = options.filter((c) => !restricted(c));
  return options;
}

const answer = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const remove = (card) => hand.splice(hand.indexOf(card), 1);

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const msg = JSON.parse(line);
  switch (msg.type) {
    case "start": rules = msg.ruleset; answer({ type: "ready", name: "random_bot.js", queries: ["legal"] }); break;
    case "deal": hand = [...msg.cards]; broken = false; trickNo = 1; played = 0; break;
    case "pass_request": {
      const given = [], passable = hand.filter((c) => !rules.unpassable_cards.includes(c));
      while (given.length < msg.count) given.push(passable.splice(Math.floor(random() * passable.length), 1)[0]);
      given.forEach(remove);
      answer({ type: "pass", cards: given });
      break;
    }
    case "received": hand.push(...msg.cards); break;
    case "play_request": {
      const options = legal(msg.cards.length ? msg.cards[0] : null), card = pick(options);
      remove(card);
      answer({ type: "play", card, legal: options });
      break;
    }
    case "played":
      played += 1;
      if ((suit(msg.card) === "H" && (played > 1 || rules.led_heart_breaks_hearts)) ||
          (msg.card === "QS" && rules.queen_breaks_hearts)) broken = true;
      break;
    case "trick": trickNo += 1; played = 0; break;
    case "moon_request": answer({ type: "moon", choice: msg.choices[0] }); break;
    case "game_end": process.exit(0);
  }
});
