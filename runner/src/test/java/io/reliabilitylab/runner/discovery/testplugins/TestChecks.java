package io.reliabilitylab.runner.discovery.testplugins;

import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.ReconciliationCheck;

/** Checks that only exist to be discovered; none of them is ever run. */
public final class TestChecks {

  private TestChecks() {}

  /** A check with a fixed name and description. */
  abstract static class FixedCheck implements ReconciliationCheck {
    private final String name;
    private final String description;

    FixedCheck(String name, String description) {
      this.name = name;
      this.description = description;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public String description() {
      return description;
    }

    @Override
    public CheckResult check(CheckContext context) {
      throw new UnsupportedOperationException("discovery tests never run a check");
    }
  }

  /** Named {@code alpha}. */
  public static final class Alpha extends FixedCheck {
    public Alpha() {
      super("alpha", "The first check, alphabetically.");
    }
  }

  /** Named {@code beta}; its description spans lines on purpose. */
  public static final class Beta extends FixedCheck {
    public Beta() {
      super("beta", "The second check,\n  alphabetically.");
    }
  }

  /** Named {@code twin}, like {@link TwinB}. */
  public static final class TwinA extends FixedCheck {
    public TwinA() {
      super("twin", "One of two checks with the same name.");
    }
  }

  /** Named {@code twin}, like {@link TwinA}. */
  public static final class TwinB extends FixedCheck {
    public TwinB() {
      super("twin", "The other of two checks with the same name.");
    }
  }

  /** Its constructor throws. */
  public static final class Exploding extends FixedCheck {
    public Exploding() {
      super("exploding", "Never constructed.");
      throw new IllegalStateException("constructor refused: missing setting lab.secret-sauce");
    }
  }

  /** Named in upper case with an underscore. */
  public static final class BadlyNamed extends FixedCheck {
    public BadlyNamed() {
      super("Bad_Name", "A name users could not type.");
    }
  }

  /** Named with the reserved word. */
  public static final class NamedAll extends FixedCheck {
    public NamedAll() {
      super("all", "Would shadow the selection of every check.");
    }
  }

  /** Without a description. */
  public static final class Undescribed extends FixedCheck {
    public Undescribed() {
      super("undescribed", " ");
    }
  }

  /** Its name() throws. */
  public static final class NamelessAtRuntime extends FixedCheck {
    public NamelessAtRuntime() {
      super("unused", "unused");
    }

    @Override
    public String name() {
      throw new IllegalStateException("name lookup failed");
    }
  }

  /** Not a check at all, though a services file lists it as one. */
  public static final class NotACheck {
    public NotACheck() {}
  }
}
