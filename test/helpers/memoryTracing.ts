/**
 * Mastra's observability interfaces (entrypoint, instance, span, exporter) implemented in memory, for tests:
 * `@mastra/observability`, which ships the real implementation, is not a dependency of this package. Mastra
 * drives it as it would the real one: it opens the agent-run, model and tool-call spans, hands tool calls their
 * `tracingContext`, and every ended span reaches the exporter, which keeps it.
 */
import { randomBytes } from 'node:crypto';
import type { Mastra } from '@mastra/core';
import { TracingEventType, type AnySpan, type ObservabilityExporter, type TracingEvent } from '@mastra/core/observability';

/** What the exporter keeps of a span, as an exporter would send it on. */
export interface ExportedSpan {
  id: string;
  traceId: string;
  parentSpanId?: string;
  name: string;
  type: string;
  metadata?: Record<string, unknown>;
  attributes?: Record<string, unknown>;
  output?: unknown;
  errorInfo?: { message: string };
  startTime: Date;
  endTime?: Date;
}

/** An exporter that collects the spans that ended. */
export class MemoryExporter implements ObservabilityExporter {
  name = 'memory';
  readonly spans: ExportedSpan[] = [];
  async exportTracingEvent(event: TracingEvent): Promise<void> {
    if (event.type === TracingEventType.SPAN_ENDED) this.spans.push(event.exportedSpan as unknown as ExportedSpan);
  }
  async flush(): Promise<void> {}
  async shutdown(): Promise<void> {}
  /** The spans whose parent is `span`, in the order they started. */
  childrenOf(span: ExportedSpan): ExportedSpan[] {
    return this.spans.filter((s) => s.parentSpanId === span.id).sort((a, b) => a.startTime.getTime() - b.startTime.getTime());
  }
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

class MemorySpan {
  readonly id = hex(8);
  readonly traceId: string;
  readonly startTime = new Date();
  endTime?: Date;
  metadata?: Record<string, unknown>;
  attributes?: Record<string, unknown>;
  output?: unknown;
  errorInfo?: { message: string };
  readonly isEvent = false;
  readonly isInternal = false;
  readonly name: string;
  readonly type: string;
  readonly input?: unknown;

  constructor(options: any, readonly observabilityInstance: MemoryInstance, readonly parent?: MemorySpan) {
    this.name = options.name;
    this.type = options.type;
    this.input = options.input;
    this.attributes = options.attributes;
    this.metadata = options.metadata;
    this.traceId = parent?.traceId ?? hex(16);
    observabilityInstance.emit(TracingEventType.SPAN_STARTED, this);
  }
  get isRootSpan() {
    return !this.parent;
  }
  get isValid() {
    return true;
  }
  getParentSpanId() {
    return this.parent?.id;
  }
  findParent(type: string) {
    let at = this.parent;
    while (at && at.type !== type) at = at.parent;
    return at;
  }
  createChildSpan(options: any) {
    return new MemorySpan(options, this.observabilityInstance, this);
  }
  createEventSpan(options: any) {
    const span = new MemorySpan(options, this.observabilityInstance, this);
    span.end({ output: options.output });
    return span;
  }
  update(options: any = {}) {
    this.attributes = { ...this.attributes, ...options.attributes };
    this.metadata = { ...this.metadata, ...options.metadata };
  }
  end(options: any = {}) {
    if (this.endTime) return;
    this.update(options);
    if ('output' in options) this.output = options.output;
    this.endTime = new Date();
    this.observabilityInstance.emit(TracingEventType.SPAN_ENDED, this);
  }
  endTree(options?: any) {
    this.end(options);
  }
  error(options: any) {
    this.errorInfo = { message: String(options.error?.message ?? options.error) };
    this.update(options);
    if (options.endSpan !== false) this.end();
  }
  getSpan() {
    return null;
  }
  /** Model spans may hand out a tracker of their steps and chunks; this one keeps only the spans. */
  createTracker() {
    return undefined;
  }
  executeInContext<T>(fn: () => Promise<T>) {
    return fn();
  }
  executeInContextSync<T>(fn: () => T) {
    return fn();
  }
  async addScore() {}
  async addFeedback() {}
  exportSpan(): ExportedSpan {
    const { id, traceId, name, type, metadata, attributes, output, errorInfo, startTime, endTime } = this;
    return { id, traceId, parentSpanId: this.parent?.id, name, type, metadata, attributes, output, errorInfo, startTime, endTime };
  }
}

class MemoryInstance {
  constructor(private readonly exporter: MemoryExporter) {}
  emit(type: TracingEventType, span: MemorySpan) {
    void this.exporter.exportTracingEvent({ type, exportedSpan: span.exportSpan() } as unknown as TracingEvent);
  }
  getConfig() {
    return { name: 'memory', serviceName: 'test' };
  }
  getExporters() {
    return [this.exporter];
  }
  getSpanOutputProcessors() {
    return [];
  }
  getBridge() {
    return undefined;
  }
  startSpan(options: any) {
    return new MemorySpan(options, this);
  }
  rebuildSpan(options: any) {
    return new MemorySpan(options, this);
  }
  async flush() {}
  async shutdown() {}
  __setLogger() {}
}

/** Passed as Mastra's `observability`: one instance, always sampled, exporting to `exporter`. */
export class MemoryObservability {
  private readonly instance: MemoryInstance;
  constructor(exporter: MemoryExporter) {
    this.instance = new MemoryInstance(exporter);
  }
  setMastraContext(_options: { mastra: Mastra }) {}
  setLogger() {}
  getSelectedInstance() {
    return this.instance;
  }
  getDefaultInstance() {
    return this.instance;
  }
  registerInstance() {}
  getInstance() {
    return this.instance;
  }
  listInstances() {
    return new Map([['default', this.instance]]);
  }
  hasInstance() {
    return true;
  }
  async flush() {}
  async shutdown() {}
}

export type { AnySpan };
