/** A deliberate violation of the sources rule, to prove the architecture test can fail. */
@NullMarked
package io.reliabilitylab.source.mysql.archfixture;

import org.jspecify.annotations.NullMarked;
