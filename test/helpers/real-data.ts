/** The real mainnet fixtures in shared/data/real (beside the project root; see PROVENANCE.md there). */
import { fileURLToPath } from 'node:url';

/** Absolute path of shared/data/real/, ending with a slash. */
export const REAL_DATA = fileURLToPath(new URL('../../../shared/data/real/', import.meta.url));
