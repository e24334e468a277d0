package io.rollgate.webhook;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Dependencies between the webhook's packages point one way: no package depends on itself through
 * others. One known cycle is left out until it is untangled: the policy audit reads {@link
 * ClusterView} of the root package, which starts the audit.
 */
class PackageCyclesTest {

  @Test
  void mainCodeHasNoPackageCyclesBesidesTheKnownOne() {
    JavaClasses classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("io.rollgate.webhook");
    slices()
        .matching("io.rollgate.(**)")
        .should()
        .beFreeOfCycles()
        .ignoreDependency(
            resideInAPackage("io.rollgate.webhook.policy"), equivalentTo(ClusterView.class))
        .check(classes);
  }
}
