package io.rollgate.controller.rollout;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The Rollout reconciler's packages point one way: the root package wires the strategies and runs
 * the top-level reconcile; its subpackages (one per strategy, traffic routing, and the shared pass
 * state, caches, Services, ReplicaSets, runs and status) never depend on it, nor on each other in a
 * cycle.
 */
class RolloutPackagesTest {

  private static final String ROOT = "io.rollgate.controller.rollout";

  private static JavaClasses mainClasses() {
    return new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
        .importPackages(ROOT);
  }

  @Test
  void subpackagesAreFreeOfCycles() {
    slices().matching(ROOT + ".(**)").should().beFreeOfCycles().check(mainClasses());
  }

  @Test
  void noSubpackageDependsOnTheRootPackage() {
    noClasses()
        .that()
        .resideInAPackage(ROOT + ".*..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage(ROOT)
        .check(mainClasses());
  }
}
