/**
 * The consistency law of streams (test/stream/law.ts) over a MessageChannel (connect()): every method's pushes after
 * each block of a replayed seeded dump equal the as-of answers just after that block.
 */
import { describeLaw } from './law.js';

describeLaw('message channel');
