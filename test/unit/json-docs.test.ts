/**
 * docs/json.md is generated from the JSON row schemas (test/helpers/json-rows/) by `npm run docs`; it must be
 * exactly what the generator writes today, so a schema change without `npm run docs` fails here.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JSON_DOCS_PATH, renderJsonDocs } from '../../scripts/json-docs.js';
import { JSON_OUTPUTS } from '../helpers/json-rows/outputs.js';

interface SchemaNode {
  title?: string;
  about?: string;
  description?: string;
  anyOf?: SchemaNode[];
  prefixItems?: SchemaNode[];
  items?: SchemaNode | false;
  additionalProperties?: SchemaNode | boolean;
  properties?: Record<string, SchemaNode>;
}

/** Fields without a description and named shapes without an `about`, as `command: path`. */
function undescribed(node: SchemaNode, at: string): string[] {
  const children: Array<[SchemaNode, string]> = [
    ...(node.anyOf ?? []).map((option): [SchemaNode, string] => [option, at]),
    ...(node.prefixItems ?? []).map((item): [SchemaNode, string] => [item, `${at}[]`]),
    ...(node.items ? [[node.items, `${at}[]`] as [SchemaNode, string]] : []),
    ...(typeof node.additionalProperties === 'object'
      ? [[node.additionalProperties, `${at}.<key>`] as [SchemaNode, string]]
      : []),
  ];
  const fields = Object.entries(node.properties ?? {});
  return [
    ...(node.title && !node.about ? [`${at} (${node.title}): no about`] : []),
    ...fields.filter(([, field]) => !field.description).map(([key]) => `${at}.${key}: no description`),
    ...fields.flatMap(([key, field]) => undescribed(field, `${at}.${key}`)),
    ...children.flatMap(([child, path]) => undescribed(child, path)),
  ];
}

describe('docs/json.md', () => {
  it('is what `npm run docs` writes from the row schemas', () => {
    const written = fs.existsSync(JSON_DOCS_PATH) ? fs.readFileSync(JSON_DOCS_PATH, 'utf8') : '';
    expect(written, 'docs/json.md is stale: run `npm run docs` and commit the result').toBe(renderJsonDocs());
  });

  it('describes every field of every output, and says what each named shape is', () => {
    const missing = JSON_OUTPUTS.flatMap((output) =>
      undescribed(z.toJSONSchema(output.schema) as SchemaNode, output.command),
    );
    expect(missing).toEqual([]);
  });

  it('is the same on every run', () => {
    expect(renderJsonDocs()).toBe(renderJsonDocs());
  });

  it('links only to headings it has', () => {
    const text = renderJsonDocs();
    const anchors = new Set(
      [...text.matchAll(/^#+ (.+)$/gm)].map(([, heading]) =>
        heading!
          .toLowerCase()
          .replace(/[^\p{L}\p{N}\s_-]/gu, '')
          .replace(/\s/g, '-'),
      ),
    );
    const links = [...text.matchAll(/\]\(#([^)]+)\)/g)].map(([, anchor]) => anchor!);
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((anchor) => !anchors.has(anchor))).toEqual([]);
  });
});
