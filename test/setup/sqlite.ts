/**
 * The tests make real SQLite files with better-sqlite3 too, so they keep what they create as the CLI does
 * (src/local/sqlite.ts): on Node 24, a collected statement can abort the test worker.
 */
import Database from 'better-sqlite3';
import { retainSqliteObjects } from '../../src/local/sqlite.js';

retainSqliteObjects(Database);
