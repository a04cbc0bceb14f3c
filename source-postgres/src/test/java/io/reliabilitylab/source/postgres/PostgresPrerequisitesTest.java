package io.reliabilitylab.source.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.source.postgres.PostgresReadiness.Publication;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class PostgresPrerequisitesTest {

  private static final CaptureTarget ORDERS =
      CaptureTarget.table("public", "orders").withPublication("lab_orders");
  private static final PostgresReadiness.Server READY_SERVER =
      new PostgresReadiness.Server("logical", 10, 1, 10);
  private static final PostgresReadiness.Role CDC =
      new PostgresReadiness.Role("lab_cdc", true, false);
  private static final PostgresReadiness.Target READABLE =
      new PostgresReadiness.Target(ORDERS, true, true, Publication.CARRIES_TABLE);

  @Test
  void aServerSetUpForLogicalDecodingHasNoProblem() {
    assertThat(PostgresPrerequisites.problems(READY_SERVER, CDC, READABLE)).isEmpty();
  }

  @Test
  void aReplicaWalLevelNamesTheSettingAndTheStatementThatFixesIt() {
    List<String> problems =
        PostgresPrerequisites.problems(
            new PostgresReadiness.Server("replica", 10, 0, 10), CDC, READABLE);

    assertThat(problems)
        .singleElement()
        .asString()
        .contains("wal_level is 'replica'")
        .contains("ALTER SYSTEM SET wal_level = logical;")
        .contains("restart");
  }

  @Test
  void aRoleWithoutReplicationAndAnUnreadableTableNameTheirGrants() {
    List<String> problems =
        PostgresPrerequisites.problems(
            READY_SERVER,
            new PostgresReadiness.Role("Capture User", false, false),
            new PostgresReadiness.Target(ORDERS, true, false, Publication.CARRIES_TABLE));

    assertThat(problems)
        .containsExactly(
            "the capture role 'Capture User' lacks the REPLICATION attribute: run ALTER ROLE"
                + " \"Capture User\" WITH REPLICATION;",
            "the capture role 'Capture User' may not read public.orders: run GRANT SELECT ON"
                + " public.orders TO \"Capture User\";");
  }

  @Test
  void aSuperuserNeedsNoReplicationAttribute() {
    assertThat(
            PostgresPrerequisites.problems(
                READY_SERVER, new PostgresReadiness.Role("postgres", false, true), READABLE))
        .isEmpty();
  }

  @Test
  void aPublicationThatIsMissingOrLacksTheTableIsNamedWithItsStatement() {
    assertThat(
            PostgresPrerequisites.problems(
                READY_SERVER,
                CDC,
                new PostgresReadiness.Target(ORDERS, true, true, Publication.MISSING)))
        .singleElement()
        .asString()
        .contains("CREATE PUBLICATION lab_orders FOR TABLE public.orders;");
    assertThat(
            PostgresPrerequisites.problems(
                READY_SERVER,
                CDC,
                new PostgresReadiness.Target(ORDERS, true, true, Publication.LACKS_TABLE)))
        .singleElement()
        .asString()
        .contains("ALTER PUBLICATION lab_orders ADD TABLE public.orders;");
  }

  @Test
  void takenSlotsSuggestDroppingOneOrRaisingTheLimit() {
    assertThat(
            PostgresPrerequisites.problems(
                new PostgresReadiness.Server("logical", 4, 4, 10), CDC, READABLE))
        .singleElement()
        .asString()
        .contains("all 4 replication slots are taken")
        .contains("pg_drop_replication_slot")
        .contains("max_replication_slots = 8;");
  }

  /** One problem per unmet condition, each one line that ends in a statement to run. */
  @Property
  void everyUnmetConditionIsOneLineWithAStatement(
      @ForAll boolean logical,
      @ForAll @IntRange(max = 12) int maxSlots,
      @ForAll @IntRange(max = 12) int slotsInUse,
      @ForAll @IntRange(max = 3) int walSenders,
      @ForAll boolean replication,
      @ForAll boolean superuser,
      @ForAll boolean tableExists,
      @ForAll boolean readable,
      @ForAll Publication publication) {
    PostgresReadiness.Server server =
        new PostgresReadiness.Server(
            logical ? "logical" : "replica", maxSlots, slotsInUse, walSenders);
    PostgresReadiness.Role role = new PostgresReadiness.Role("lab_cdc", replication, superuser);
    CaptureTarget target =
        publication == Publication.NOT_NAMED ? CaptureTarget.table("public", "orders") : ORDERS;
    PostgresReadiness.Target found =
        new PostgresReadiness.Target(target, tableExists, readable, publication);

    List<String> problems = PostgresPrerequisites.problems(server, role, found);

    int unmet =
        (logical ? 0 : 1)
            + (maxSlots == 0 || slotsInUse >= maxSlots ? 1 : 0)
            + (walSenders == 0 ? 1 : 0)
            + (replication || superuser ? 0 : 1)
            + (tableExists && !readable ? 1 : 0)
            + (publication == Publication.MISSING || publication == Publication.LACKS_TABLE
                ? 1
                : 0);
    assertThat(problems).hasSize(unmet);
    assertThat(problems)
        .allSatisfy(
            problem ->
                assertThat(problem)
                    .doesNotContain("\n")
                    .containsPattern("(run|with) (ALTER|GRANT|CREATE|SELECT) "));
    assertThat(new PostgresReadiness(server, role, found, problems).ready()).isEqualTo(unmet == 0);
  }

  @Test
  void theExceptionIsOneLineJoiningTheProblems() {
    PostgresNotReadyException e =
        new PostgresNotReadyException(List.of("first: run A;", "second:\nrun B;"), null);

    assertThat(e.getMessage())
        .isEqualTo(
            "The PostgreSQL source is not ready for change capture: first: run A; second: run B;");
  }

  @Test
  void identifiersAreQuotedOnlyWhereSqlNeedsIt() {
    assertThat(Identifiers.quote("orders")).isEqualTo("orders");
    assertThat(Identifiers.quote("Orders")).isEqualTo("\"Orders\"");
    assertThat(Identifiers.quote("a\"b")).isEqualTo("\"a\"\"b\"");
  }
}
