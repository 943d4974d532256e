// Iceberg's snapshot ids are 64-bit: JSON.parse would round them, so the catalog API's answers
// that carry them are read with the big integers quoted first.

/** JSON text with every integer literal beyond Number.MAX_SAFE_INTEGER turned into a string. */
export function quoteBigIntegers(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      // Copy a string literal as is, escapes included.
      let j = i + 1;
      while (j < text.length && text[j] !== '"') {
        j += text[j] === "\\" ? 2 : 1;
      }
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === "-" || (c >= "0" && c <= "9")) {
      let j = i + 1;
      while (j < text.length && /[0-9.eE+-]/.test(text[j])) {
        j++;
      }
      const literal = text.slice(i, j);
      const unsafe = /^-?\d+$/.test(literal) && !Number.isSafeInteger(Number(literal));
      out += unsafe ? `"${literal}"` : literal;
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}
