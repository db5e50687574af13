/** Incremental UTF-8 decoding of byte chunks, shared by the text formats. */

/**
 * Decodes UTF-8 chunks into text pieces; a character split across chunks is decoded whole, a byte
 * order mark is dropped, and invalid bytes become U+FFFD (the row then fails validation, not the file).
 */
export async function* decodeUtf8(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of chunks) {
    const text = decoder.decode(chunk, { stream: true });
    if (text) yield text;
  }
  const tail = decoder.decode();
  if (tail) yield tail;
}
