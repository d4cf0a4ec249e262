/* Chronicle's proof page check: recomputes a roll's faces from its scene's revealed seed, in the
   reader's browser, with WebCrypto, as docs/fair-dice.md (sections 1 and 3 to 6) describes. It
   needs no library and sends nothing anywhere: what it checks is on the page.
   window.ChronicleProof exposes the algorithm (the browser tests compare it with the Python one). */
"use strict";

(function () {
  const TAG = new TextEncoder().encode("chronicle-dice-v1");
  const TWO_32 = 2 ** 32;

  function bytesOfHex(hex) {
    if (typeof hex !== "string" || !/^([0-9a-f]{2})*$/.test(hex)) {
      throw new Error("not lowercase hex: " + hex);
    }
    const bytes = new Uint8Array(hex.length / 2);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(hex.substr(2 * i, 2), 16);
    return bytes;
  }

  function hexOf(buffer) {
    return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  /* hex(SHA-256(seed)): the commitment a seed must match (SHA-256 of the 32 raw bytes). */
  async function commitmentOf(seedHex) {
    return hexOf(await crypto.subtle.digest("SHA-256", bytesOfHex(seedHex)));
  }

  /* "chronicle-dice-v1" ‖ u32(len(client)) ‖ client ‖ u64(nonce) ‖ u64(counter), big-endian. */
  function message(client, nonce, counter) {
    const clientBytes = new TextEncoder().encode(client);
    const bytes = new Uint8Array(TAG.length + 4 + clientBytes.length + 16);
    const view = new DataView(bytes.buffer);
    bytes.set(TAG, 0);
    view.setUint32(TAG.length, clientBytes.length);
    bytes.set(clientBytes, TAG.length + 4);
    view.setBigUint64(TAG.length + 4 + clientBytes.length, BigInt(nonce));
    view.setBigUint64(TAG.length + 12 + clientBytes.length, BigInt(counter));
    return bytes;
  }

  /* The roll's words: the eight big-endian u32 of block 0, then of block 1, and so on. */
  async function wordsOf(seedHex, client, nonce) {
    const key = await crypto.subtle.importKey(
      "raw", bytesOfHex(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    let counter = 0;
    let words = [];
    return async function next() {
      if (words.length === 0) {
        const block = new DataView(await crypto.subtle.sign("HMAC", key, message(client, nonce, counter)));
        counter += 1;
        for (let i = 0; i < 8; i += 1) words.push(block.getUint32(4 * i));
      }
      return words.shift();
    };
  }

  /* One die by rejection sampling: a plain modulo would favour the low faces. */
  async function die(next, sides) {
    if (!Number.isInteger(sides) || sides < 1 || sides > TWO_32) {
      throw new Error("a die of " + sides + " sides cannot be rolled");
    }
    const limit = TWO_32 - (TWO_32 % sides);
    for (;;) {
      const word = await next();
      if (word < limit) return (word % sides) + 1;
    }
  }

  /* The faces of a roll's dice, in draw order, from its seed, client seed and nonce. */
  async function recompute(seedHex, client, nonce, sides) {
    const next = await wordsOf(seedHex, client, nonce);
    const faces = [];
    for (const n of sides) faces.push(await die(next, n));
    return faces;
  }

  /* The page's verdict: "sealed", "verified" or "mismatch" (with the reasons). */
  async function verify(data) {
    const epoch = data.epochs.find((e) => e.commitment === data.commitment);
    if (epoch === undefined) {
      return { state: "mismatch", reasons: ["the record's commitment is none its scene published"] };
    }
    if (epoch.seed === null) return { state: "sealed", reasons: [] };
    const reasons = [];
    if ((await commitmentOf(epoch.seed)) !== data.commitment) {
      reasons.push("SHA-256 of the revealed seed is not the commitment");
    }
    const faces = data.faces.slice().sort((a, b) => a.index - b.index);
    faces.forEach((f, i) => {
      if (f.index !== i) reasons.push("the dice are not numbered 0, 1, 2… (#" + f.index + ")");
    });
    let recomputed = [];
    try {
      recomputed = await recompute(epoch.seed, data.client_seed, data.nonce, faces.map((f) => f.sides));
    } catch (error) {
      return { state: "mismatch", reasons: reasons.concat([String(error.message)]), recomputed };
    }
    faces.forEach((f, i) => {
      if (f.face !== recomputed[i]) {
        reasons.push("die #" + f.index + " is recorded as " + f.face + "; the seed gives " + recomputed[i]);
      }
    });
    return { state: reasons.length ? "mismatch" : "verified", reasons, recomputed };
  }

  function show(verdict, count) {
    const shown = document.getElementById("verdict");
    shown.dataset.state = verdict.state;
    if (verdict.state === "verified") {
      shown.textContent = "Verified in your browser: SHA-256 of the revealed seed is the commitment, "
        + "and all " + count + " faces recompute from the seed, the client seed and the nonce.";
    } else if (verdict.state === "mismatch") {
      shown.textContent = "Mismatch: this record does not follow from its seed. "
        + verdict.reasons.join("; ") + ".";
    }
    (verdict.recomputed || []).forEach((face, i) => {
      const row = document.querySelector('#faces tr[data-index="' + i + '"]');
      if (row === null) return;
      const cell = row.querySelector(".recomputed");
      cell.textContent = String(face);
      cell.className = "recomputed " + (String(face) === row.querySelector(".face").textContent ? "same" : "differs");
    });
  }

  /* Times in the reader's own language and time zone; the page's text keeps them in UTC. */
  function localTimes() {
    document.querySelectorAll("time[datetime]").forEach((element) => {
      const when = new Date(element.getAttribute("datetime"));
      if (!Number.isNaN(when.getTime())) element.textContent = when.toLocaleString();
    });
  }

  async function checkThePage() {
    localTimes();
    const source = document.getElementById("proof-data");
    if (source === null) return;
    const data = JSON.parse(source.textContent);
    if (!window.isSecureContext || !window.crypto || !crypto.subtle) {
      const shown = document.getElementById("verdict");
      shown.dataset.state = "unavailable";
      shown.textContent = "This browser offers no WebCrypto on this page (it needs HTTPS): "
        + "the faces cannot be checked here.";
      return;
    }
    show(await verify(data), data.faces.length);
  }

  window.ChronicleProof = { commitmentOf, recompute, verify };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", checkThePage);
  } else {
    checkThePage();
  }
})();
