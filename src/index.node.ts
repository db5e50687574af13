/** chainlens for Node: the common surface. */
export * from './index.js';
