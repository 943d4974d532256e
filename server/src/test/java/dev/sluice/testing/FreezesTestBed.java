package dev.sluice.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A bed test that freezes a shared test bed (SIGSTOP on Ceph RGW or Azurite) for a few seconds. It
 * runs after the bed lane, alone (server/pom.xml's {@code frozen-beds} execution), because any test
 * running beside it in another JVM would see the frozen bed time out and fail for nothing it did.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
@Tag(FreezesTestBed.TAG)
public @interface FreezesTestBed {
  String TAG = "freezes-bed";
}
