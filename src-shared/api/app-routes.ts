/** The application's own routes: health and the document, settings, keys and demo, exports and backups (a part of the route table, routes.ts composes them). */
import { Type } from 'typebox';
import { json, type RouteKeyText, type RouteSpec } from './route-spec';
import {
  BackupSchema,
  BackupsResponse,
  DemoResponse,
  ExportIdParams,
  ExportJobSchema,
  ExportRequestBody,
  ExportsResponse,
  HealthSchema,
  KeyRotateResponse,
  NoQuery,
  RestoreRequestBody,
  RestoreResponse,
  SettingsSchema,
  SettingsUpdate,
} from './schemas';

/** Health and the OpenAPI document: no key. */
export const META_ROUTES = {
  'GET /health': { kind: 'json', access: 'public', tag: 'meta', summary: 'Liveness (no key needed)', query: NoQuery, response: { 200: HealthSchema } },
  'GET /openapi.json': { kind: 'json', access: 'public', tag: 'meta', summary: 'This document (OpenAPI 3.1)', query: NoQuery, response: { 200: Type.Unknown() }, hidden: true },
} as const satisfies Record<RouteKeyText, RouteSpec>;

/** Settings, the key, the demo. */
export const SETTINGS_ROUTES = {
  'GET /settings': { ...json, tag: 'settings', summary: 'Current settings', query: NoQuery, response: { 200: SettingsSchema } },
  'PUT /settings': { ...json, tag: 'settings', summary: 'Change settings (JSON body with any subset of the fields)', query: NoQuery, body: SettingsUpdate, response: { 200: SettingsSchema } },
  'POST /keys/rotate': { ...json, tag: 'settings', summary: 'Replace the key of the api-key file (the old key stops working)', query: NoQuery, response: { 200: KeyRotateResponse } },
  'POST /demo': { ...json, tag: 'settings', summary: 'Load the generated demo market and demo journal (clearly marked source demo)', query: NoQuery, response: { 200: DemoResponse } },
} as const satisfies Record<RouteKeyText, RouteSpec>;

/** Research exports and backups of the journal. */
export const DATA_ROUTES = {
  'POST /exports': {
    ...json,
    tag: 'exports',
    summary: 'Export the Parquet lake for research (in a worker thread); 202 with the job, then GET /v1/exports/{id}',
    query: NoQuery,
    body: ExportRequestBody,
    response: { 202: ExportJobSchema },
  },
  'GET /exports': { ...json, tag: 'exports', summary: 'Recent exports, newest first', query: NoQuery, response: { 200: ExportsResponse } },
  'GET /exports/{id}': { ...json, tag: 'exports', summary: 'An export’s state and progress', params: ExportIdParams, query: NoQuery, response: { 200: ExportJobSchema } },
  'GET /backups': { ...json, tag: 'backups', summary: 'Backups of the journal, newest first, and a restore staged for the next start', query: NoQuery, response: { 200: BackupsResponse } },
  'POST /backups': { ...json, tag: 'backups', summary: 'Back up the journal now (SQLite VACUUM INTO, in a worker thread)', query: NoQuery, response: { 201: BackupSchema } },
  'POST /backups/restore': {
    ...json,
    tag: 'backups',
    summary: 'Check a backup (integrity, schema version) and stage it to replace the journal at the next start (202)',
    query: NoQuery,
    body: RestoreRequestBody,
    response: { 202: RestoreResponse },
  },
} as const satisfies Record<RouteKeyText, RouteSpec>;
