/**
 * The consistency law of streams (test/stream/law.ts) over a WebSocket of the server (the `ws` client): every method's pushes after
 * each block of a replayed seeded dump equal the as-of answers just after that block.
 */
import { describeLaw } from './law.js';

describeLaw('websocket');
