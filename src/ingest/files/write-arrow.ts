/**
 * Arrow IPC writer (file format by default, or stream), batch by batch: apache-arrow's writer puts
 * its bytes into a queue that is drained into the sink after every batch, so nothing accumulates.
 */
import { AsyncByteQueue, RecordBatchFileWriter, RecordBatchStreamWriter, type Table } from 'apache-arrow';
import type { TableName } from '../../schema/tables.js';
import { arrowSchema } from '../arrow.js';
import type { SinkWriter } from './sink.js';
import type { FormatWriter } from './write-text.js';

/** The byte queue apache-arrow's writer writes into, kept as a list we drain ourselves. */
class DrainedQueue extends AsyncByteQueue {
  pending: Uint8Array[] = [];

  override write(value: Uint8Array): void {
    if (value.byteLength > 0) this.pending.push(value);
  }
}

/** An Arrow IPC file (`ARROW1` ... footer) or stream of canonical batches. */
export function arrowWriter(table: TableName, sink: SinkWriter, format: 'file' | 'stream' = 'file'): FormatWriter {
  const queue = new DrainedQueue();
  const schema = arrowSchema(table);
  const writer = format === 'file' ? new RecordBatchFileWriter({ autoDestroy: false }) : new RecordBatchStreamWriter({ autoDestroy: false });
  writer.reset(queue, schema); // writes the schema now, so a file with no rows still has one
  const drain = async () => {
    for (const chunk of queue.pending.splice(0)) await sink.write(chunk);
  };
  return {
    async write(data: Table) {
      for (const batch of data.batches) {
        if (batch.numRows === 0) continue;
        writer.write(batch);
        await drain();
      }
    },
    async end() {
      writer.finish(); // end-of-stream marker, and for a file the footer
      await drain();
    },
  };
}
