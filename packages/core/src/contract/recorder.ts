// The bookkeeping a reconcile does while it walks its rules, in one place: the actions in the
// order it issues them, the events it reports on its object, the requeue delay (the smallest any
// rule asks for: each rule says when time alone would change its answer, and the earliest such
// moment is when the whole reconcile must run again) and the conditions it sets on the status it
// builds. At the end `result` turns them into the ReconcileResult the shells read. A recorder
// belongs to one reconcile call and is never shared or kept.
import { setCondition } from '../pods/conditions';
import type { Action, EventAction, ObjectRef, ReconcileResult } from './actions';
import type { FieldError } from './errors';

/** A status condition as every workload and node-side kind writes it. */
export interface RecordedCondition {
  type: string;
  status: string;
  message?: string;
}

/** What `result` adds to the recorded actions and requeue besides the status. */
export interface RecorderResultFields<State> {
  /** Field errors (none unless given). */
  errors?: FieldError[];
  /** The state the shell keeps for the next reconcile. */
  controllerState?: State;
}

/**
 * The actions, events, requeue and conditions of one reconcile of the object `involvedObject`.
 *
 * Example: `rec.act(patch); rec.requeueAfter(30); rec.requeueAfter(5); rec.result(status)` →
 * `{ actions: [patch], status, errors: [], requeueAfterSeconds: 5 }`.
 */
export class ReconcileRecorder<Condition extends RecordedCondition = RecordedCondition> {
  /** The actions so far, in the order the controller issues them. */
  readonly actions: Action[] = [];
  private requeue: number | undefined;
  private conditionList: Condition[];

  /**
   * @param involvedObject the reconciled object, which events are about
   * @param conditions the conditions of its current status, which `setCondition` edits
   */
  constructor(
    readonly involvedObject: ObjectRef,
    conditions: readonly Condition[] = [],
  ) {
    this.conditionList = [...conditions];
  }

  /** Records actions, after those already recorded. */
  act(...actions: readonly Action[]): this {
    for (const a of actions) this.actions.push(a);
    return this;
  }

  /** Records an event on the reconciled object. */
  event(type: EventAction['type'], reason: string, message: string): this {
    this.actions.push({ verb: 'event', involvedObject: this.involvedObject, type, reason, message });
    return this;
  }

  /**
   * A rule asks to run again after `seconds` (0 = at once); the smallest request wins and
   * `undefined` asks for nothing.
   */
  requeueAfter(seconds: number | undefined): this {
    if (seconds !== undefined && (this.requeue === undefined || seconds < this.requeue))
      this.requeue = seconds;
    return this;
  }

  /** The smallest delay asked for so far, or `undefined`. */
  get requeueAfterSeconds(): number | undefined {
    return this.requeue;
  }

  /**
   * Sets a condition on the status being built (core's R5.5 `setCondition`: the condition of the
   * same type is replaced only when its status changes).
   */
  setCondition(condition: Condition): this {
    this.conditionList = setCondition(this.conditionList, condition);
    return this;
  }

  /** The conditions as set so far: a new list. */
  get conditions(): Condition[] {
    return [...this.conditionList];
  }

  /**
   * The reconcile's result: the recorded actions, `status`, the errors given (none by default),
   * the state given (the key present, as the shells store it, whenever `fields` has it) and the
   * requeue delay when one was asked for.
   */
  result<Status, State = undefined>(
    status: Status,
    fields: RecorderResultFields<State> = {},
  ): ReconcileResult<Status, State> {
    const r: ReconcileResult<Status, State> = { actions: this.actions, status, errors: fields.errors ?? [] };
    if ('controllerState' in fields) r.controllerState = fields.controllerState;
    if (this.requeue !== undefined) r.requeueAfterSeconds = this.requeue;
    return r;
  }
}
