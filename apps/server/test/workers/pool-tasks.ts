// Task functions for the worker pool tests, loaded by URL inside pool threads.
import { isMainThread, threadId } from 'node:worker_threads';
import { SkillportError } from '@skillport/core';
import { defineWorkerTask, withTransfer } from '../../src/workers/worker-task.js';

export function whereAmI(tag: string): { tag: string; isMainThread: boolean; threadId: number } {
  return { tag, isMainThread, threadId };
}
export const WHERE_AM_I = defineWorkerTask(import.meta.url, 'whereAmI', whereAmI);

export function spin(ms: number): number {
  const end = Date.now() + ms;
  let n = 0;
  while (Date.now() < end) n++;
  return n;
}
export const SPIN = defineWorkerTask(import.meta.url, 'spin', spin);

export function refuse(field: string): never {
  throw new SkillportError('INVALID_ARGUMENT', `bad ${field}`, { details: { field } });
}
export const REFUSE = defineWorkerTask(import.meta.url, 'refuse', refuse);

export function hoard(megabytes: number): number {
  const kept: string[][] = [];
  for (let i = 0; i < megabytes; i++) kept.push(Array.from({ length: 32 * 1024 }, (_, j) => `${i}:${j}`));
  return kept.length;
}
export const HOARD = defineWorkerTask(import.meta.url, 'hoard', hoard);

export function fill(size: number): { bytes: Uint8Array } {
  const bytes = new Uint8Array(size).fill(7);
  return withTransfer({ bytes }, [bytes.buffer as ArrayBuffer]);
}
export const FILL = defineWorkerTask(import.meta.url, 'fill', fill);
