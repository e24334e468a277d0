package io.rollgate;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Dependencies between the packages of common point one way: no package depends on itself through
 * others.
 */
class PackageCyclesTest {

  @Test
  void mainCodeHasNoPackageCycles() {
    JavaClasses classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("io.rollgate");
    slices().matching("io.rollgate.(**)").should().beFreeOfCycles().check(classes);
  }
}
