/**
 * A real Postgres for the tests, started from npm packages: PGlite (Postgres compiled to WebAssembly) behind its
 * socket server, which speaks Postgres' wire protocol, so node-postgres in any process connects to it as to a
 * server. Nothing is installed on the system and nothing is downloaded.
 */
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface TestPostgres {
  /** A connection string for node-postgres (`pg`). */
  url: string;
  close: () => Promise<void>;
}

export async function startPostgres(): Promise<TestPostgres> {
  const db = await PGlite.create();
  // Every worker process opens a pool of its own: room for all of them at once.
  const server = new PGLiteSocketServer({ db, port: 0, maxConnections: 100 });
  await server.start();
  return {
    url: `postgres://postgres@${server.getServerConn()}/postgres`,
    close: async () => {
      await server.stop();
      await db.close();
    },
  };
}
