// The pull worker of one image:tag:version (docs/reference/daemon.md §7.5–§7.6): reports Pulling at once, then
// up to backoffLimit+1 attempts with per-attempt timeout, deadline and 1 s…30 s backoff, the
// IfNotPresent short-cut through ListImages, and the final Succeeded/Failed status with events.
import type { ImageTagSpec, ImageTagStatus, SandboxConfig } from '@kruise-ts/api';
import type { ObjectReference, Secret } from 'kubernetes-types/core/v1.js';
import { type Clock, rfc3339 } from '../clock';
import type { CriImageService } from '../cri/types';
import { findImage } from '../imageRef';
import type { DockerConfig } from '../keyring';
import type { EventRecord } from '../kube/adapter';
import type { Logger } from '../log';
import {
  attemptTimeoutMs,
  backoffStepMs,
  maxAttempts,
  PULL_DEADLINE_MESSAGE,
  pullCanceledMessage,
  pullStoppedMessage,
  pullWorkerParams,
} from './policy';
import { pullWithCredentials } from './pull';

/** What a worker needs from its surroundings. */
export interface PullWorkerDeps {
  image: CriImageService;
  clock: Clock;
  logger: Logger;
  recordEvent: (ev: EventRecord) => void;
  /** The NodeImage, for events. */
  nodeImageRef: ObjectReference;
  nodeDockerConfig?: DockerConfig;
}

/** The work of one worker. */
export interface PullWorkerSpec {
  name: string;
  tag: ImageTagSpec;
  secrets: readonly Secret[];
  sandboxConfig?: SandboxConfig;
}

/** A running pull of one image:tag:version. `done` settles when it ends (never rejects). */
export class PullWorker {
  readonly tag: string;
  readonly version: number;
  private readonly stopCtl = new AbortController();
  private running: Promise<void> | undefined;

  constructor(
    private readonly spec: PullWorkerSpec,
    private readonly deps: PullWorkerDeps,
    private readonly report: (status: ImageTagStatus) => void,
  ) {
    this.tag = spec.tag.tag;
    this.version = spec.tag.version ?? 0;
  }

  /** Starts the pull (once); the Pulling status is reported synchronously. */
  start(): void {
    if (this.running) return;
    this.running = this.run().catch((e) => {
      this.deps.logger.error(
        { image: this.spec.name, tag: this.tag, err: (e as Error).message },
        'pull worker crashed',
      );
    });
  }

  /** Settles when the worker has ended (never rejects). */
  get done(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  /** True once {@link stop} was called. */
  get stopped(): boolean {
    return this.stopCtl.signal.aborted;
  }

  /** §7.4 item 2: stops the worker; an attempt in flight is cancelled and nothing more is reported. */
  stop(): void {
    this.stopCtl.abort();
  }

  private async run(): Promise<void> {
    const { clock, logger } = this.deps;
    const { name } = this.spec;
    const tag = this.tag;
    const startMs = clock.now();
    // §7.5 item 1: Pulling, reported immediately (progress 0 until done, §7.6 item 4).
    let status: ImageTagStatus = {
      tag,
      phase: 'Pulling',
      startTime: rfc3339(startMs),
      version: this.version,
    };
    this.report(status);
    const params = pullWorkerParams(this.spec.tag, startMs);
    let lastError = '';
    for (let i = 0; i < maxAttempts(params); i++) {
      const timeoutMs = attemptTimeoutMs(params, clock.now());
      if (timeoutMs === undefined) {
        lastError = PULL_DEADLINE_MESSAGE;
        break;
      }
      try {
        await this.attempt(timeoutMs);
      } catch (e) {
        lastError = (e as Error).message;
        logger.warn({ image: name, tag, attempt: i, err: lastError }, 'pull attempt failed');
        if (this.stopped) break;
        await clock.sleep(backoffStepMs(i), this.stopCtl.signal);
        if (this.stopped) break;
        continue;
      }
      // §7.5 item 2.5: success.
      let imageID: string | undefined;
      try {
        const img = findImage(await this.deps.image.listImages(), name, tag);
        if (img) imageID = `${name}@${img.id}`;
      } catch (e) {
        logger.warn({ image: name, tag, err: (e as Error).message }, 'list images after pull failed');
      }
      status = { ...status, phase: 'Succeeded', progress: 100, completionTime: rfc3339(clock.now()) };
      if (imageID) status.imageID = imageID;
      delete status.message;
      if (this.stopped) return;
      this.deps.recordEvent({
        involvedObject: this.deps.nodeImageRef,
        type: 'Normal',
        reason: 'PullImageSucceed',
        message: `Image ${name}:${tag}, elapsed ${((clock.now() - startMs) / 1000).toFixed(3)}s`,
      });
      logger.info({ image: name, tag, version: this.version, imageID }, 'image pulled');
      this.report(status);
      return;
    }
    // §7.5 items 3–4.
    if (this.stopped) return;
    status = { ...status, phase: 'Failed', completionTime: rfc3339(clock.now()), message: lastError };
    const message = `Image ${name}:${tag} ${lastError}`;
    for (const owner of this.spec.tag.ownerReferences ?? []) {
      this.deps.recordEvent({ involvedObject: owner, type: 'Warning', reason: 'PullImageFailed', message });
    }
    this.deps.recordEvent({
      involvedObject: this.deps.nodeImageRef,
      type: 'Warning',
      reason: 'PullImageFailed',
      message,
    });
    logger.warn({ image: name, tag, version: this.version, err: lastError }, 'image pull failed');
    this.report(status);
  }

  /** §7.6: one attempt. Rejects with the attempt's error text. */
  private async attempt(timeoutMs: number): Promise<void> {
    const { name } = this.spec;
    const tag = this.tag;
    if (this.spec.tag.imagePullPolicy === 'IfNotPresent') {
      const images = await this.deps.image.listImages();
      if (findImage(images, name, tag)) return; // §7.6 item 1: present, no pull
    }
    if (this.stopped) throw new Error(pullStoppedMessage(name, tag));
    const ctl = new AbortController();
    const onStop = () => ctl.abort();
    this.stopCtl.signal.addEventListener('abort', onStop, { once: true });
    let timedOut = false;
    const cancelTimer = this.deps.clock.setTimer(() => {
      timedOut = true;
      ctl.abort();
    }, timeoutMs);
    try {
      await pullWithCredentials(
        this.deps.image,
        {
          name,
          tag,
          secrets: this.spec.secrets,
          sandboxConfig: this.spec.sandboxConfig,
          nodeDockerConfig: this.deps.nodeDockerConfig,
        },
        { signal: ctl.signal, timeoutMs: 0 },
      );
    } catch (e) {
      if (this.stopped) throw new Error(pullStoppedMessage(name, tag));
      if (timedOut) throw new Error(pullCanceledMessage(name, tag));
      throw e;
    } finally {
      cancelTimer();
      this.stopCtl.signal.removeEventListener('abort', onStop);
    }
  }
}
