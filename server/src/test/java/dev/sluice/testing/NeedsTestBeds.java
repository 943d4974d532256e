package dev.sluice.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test class (or method) that needs a test bed scripts/testbeds.sh starts (Ceph RGW, PostgreSQL,
 * Azurite): it runs in the bed lane (failsafe, {@code mvn verify}), never in the unit lane ({@code
 * mvn test}), which needs nothing started. Without its bed such a test fails, never skips.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
@Tag(NeedsTestBeds.TAG)
public @interface NeedsTestBeds {
  String TAG = "bed";
}
