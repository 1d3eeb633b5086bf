// Preloaded (NODE_OPTIONS=--require) into every process of a grade: `Date.now()` reads a system
// clock stepped by STEPPED_CLOCK_MS (back when negative) every half second of real time, as a
// time sync or a virtual machine resumed from a pause steps it.
const step = Number(process.env.STEPPED_CLOCK_MS);
const realNow = Date.now;
Date.now = () => realNow() + step * Math.floor(realNow() / 500);
