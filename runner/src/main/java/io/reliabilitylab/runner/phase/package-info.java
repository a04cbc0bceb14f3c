/**
 * One scenario as phases over its state ({@link io.reliabilitylab.runner.phase.Scenario}), in the
 * order {@link io.reliabilitylab.runner.phase.Lifecycle} runs them: {@link
 * io.reliabilitylab.runner.phase.Prepare prepare} the source, {@link
 * io.reliabilitylab.runner.phase.Preload preload} a snapshot, {@link
 * io.reliabilitylab.runner.phase.Start start} the pipeline, write and reconcile the {@link
 * io.reliabilitylab.runner.phase.Baseline baseline}, the {@link
 * io.reliabilitylab.runner.phase.FaultPhase faults} or the {@link
 * io.reliabilitylab.runner.phase.ExercisePhase exercises}, {@link
 * io.reliabilitylab.runner.phase.CatchUpPhase catch-up}, {@link
 * io.reliabilitylab.runner.phase.Reconcile reconcile}, and {@link
 * io.reliabilitylab.runner.phase.RecordRun record}. Each phase says whether the scenario goes on
 * ({@link io.reliabilitylab.runner.phase.Outcome}); none reads it back from the record.
 */
@NullMarked
package io.reliabilitylab.runner.phase;

import org.jspecify.annotations.NullMarked;
