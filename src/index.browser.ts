/** chainlens for browsers: the common surface. */
export * from './index.js';
