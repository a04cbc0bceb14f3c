/**
 * The runnable jar's entry point: refuses an unsupported Java with one line, then starts the
 * command line. Compiled for Java 8 so that it can speak on old JVMs too.
 *
 * <p>Not {@code @NullMarked}: at release 8 javac warns that the annotation targets {@code
 * ElementType.MODULE}, which Java 8 lacks. Everything here is non-null except what is marked
 * {@code @Nullable}.
 */
package io.reliabilitylab.examples.launcher;
