package io.rollgate.controller;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Dependencies between the controller's packages point one way: the program wiring (this package)
 * on the features (rollout, analysis, experiment, traffic, plugin, notify, ...), the features on
 * the reconcile runtime ({@code ...runtime}) and the API facade ({@code ...kube}), and no package
 * depends on itself through others.
 */
class PackageCyclesTest {

  @Test
  void mainCodeHasNoPackageCycles() {
    JavaClasses classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("io.rollgate.controller");
    slices()
        // "io.rollgate.controller.(**)" would leave this package out: with the classes of
        // io.rollgate.controller imported, "io.rollgate.(**)" makes it a slice of its own too.
        .matching("io.rollgate.(**)")
        .should()
        .beFreeOfCycles()
        .check(classes);
  }
}
