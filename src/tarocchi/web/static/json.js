// JSON as the site writes it: seeds are 64-bit integers, past the 2^53 a Number holds exactly.

// A JSON.parse reviver that keeps a seed's digits (as raw JSON, which JSON.stringify writes
// back unchanged, e.g. for "the same deal again" or a record sent to be checked).
export const exactSeed = (key, value, ctx) => (key === "seed" && ctx?.source ? JSON.rawJSON(ctx.source) : value);
