export { Status } from './status';
export {
  reserve,
  capacity,
  inputPtr,
  millisPtr,
  outputPtr,
  maxPercentiles,
  percentilesU64,
} from './percentiles';
