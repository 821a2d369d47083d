# Installs torii.exe from a release into a user directory; never needs administrator rights.
# Windows PowerShell 5.1 or PowerShell 7, on Windows x86_64.
#
#   irm https://raw.githubusercontent.com/torii-mcp/torii/main/install.ps1 | iex
#   & ([scriptblock]::Create((irm https://raw.githubusercontent.com/torii-mcp/torii/main/install.ps1))) -Version v0.2.0
#   powershell -ExecutionPolicy Bypass -File install.ps1 -InstallDir C:\tools\torii -NoPathUpdate
#
#   -Version vX.Y.Z   that release instead of the latest          (piped: $env:TORII_VERSION)
#   -InstallDir DIR   where torii.exe goes                        (piped: $env:TORII_INSTALL_DIR)
#                     default $env:LOCALAPPDATA\Programs\torii\bin
#   -NoPathUpdate     leave the user PATH alone, say how to add DIR (piped: $env:TORII_NO_PATH_UPDATE=1)
#   -NoSignatureCheck install on the checksum alone                (piped: $env:TORII_NO_SIGNATURE_CHECK=1)
#
# The same steps as install.sh. The published .sha256 must be signed by a torii release key (its
# .sha256.minisig), checked with minisign: Windows offers no Ed25519 of its own, so without
# minisign on PATH nothing is installed unless -NoSignatureCheck says so. The archive's SHA-256
# is checked with Get-FileHash against that .sha256 before anything is extracted.
# TORII_RELEASE_BASE_URL replaces the release location (mirrors, the release workflow's check);
# https:// only, redirects too. TORII_RELEASE_PUBLIC_KEY replaces the release key.
#
# The parameters belong to a function, not to the script: `irm | iex` evaluates the text in the
# caller's session, where a script-level param() block is no parameter block at all. The script
# passes its own arguments on (`@args`, which keeps their names); piped, it has none, and the
# environment gives the options instead.

function Install-Torii {
    param(
        [string]$Version = $env:TORII_VERSION,
        [string]$InstallDir = $env:TORII_INSTALL_DIR,
        [switch]$NoPathUpdate,
        [switch]$NoSignatureCheck
    )
    # Inside a function, the caller's session keeps its own preferences when this runs through
    # iex. Errors are thrown, never `exit`: that would close the caller's window.
    $ErrorActionPreference = 'Stop'
    Set-StrictMode -Off
    # The progress bar makes Invoke-WebRequest many times slower on Windows PowerShell 5.1.
    $ProgressPreference = 'SilentlyContinue'

    $base = $env:TORII_RELEASE_BASE_URL
    if (-not $base) { $base = 'https://github.com/torii-mcp/torii/releases' }
    $base = $base.TrimEnd('/')
    if ($base -cnotlike 'https://*') {
        throw "torii install: TORII_RELEASE_BASE_URL must be an https:// URL, not $base"
    }

    if ($PSVersionTable.PSVersion.Major -ge 6 -and -not $IsWindows) {
        throw 'torii install: install.ps1 is for Windows; elsewhere use install.sh'
    }
    # A 32-bit PowerShell on 64-bit Windows reports x86 here and AMD64 in PROCESSOR_ARCHITEW6432.
    $arch = $env:PROCESSOR_ARCHITEW6432
    if (-not $arch) { $arch = $env:PROCESSOR_ARCHITECTURE }
    if ($arch -ne 'AMD64') {
        throw "torii install: no release for Windows $arch; build from source (cargo build --release)"
    }
    $platform = 'windows-x86_64'

    if (-not $NoPathUpdate -and $env:TORII_NO_PATH_UPDATE -and $env:TORII_NO_PATH_UPDATE -ne '0') {
        $NoPathUpdate = $true
    }
    if (-not $NoSignatureCheck -and $env:TORII_NO_SIGNATURE_CHECK -and $env:TORII_NO_SIGNATURE_CHECK -ne '0') {
        $NoSignatureCheck = $true
    }
    # The public keys (minisign's format) of torii's releases, as in src/release.rs: the current
    # key and the next one. Empty until the project's key is made (docs/src/installation.md).
    $releaseKeys = @()
    if ($env:TORII_RELEASE_PUBLIC_KEY) { $releaseKeys = -split $env:TORII_RELEASE_PUBLIC_KEY }
    if (-not $InstallDir) { $InstallDir = Join-Path $env:LOCALAPPDATA 'Programs\torii\bin' }
    # Absolute, against PowerShell's current location (the PATH entry must be absolute).
    $InstallDir = $ExecutionContext.SessionState.Path.GetUnresolvedProviderPathFromPSPath($InstallDir)

    # Windows PowerShell 5.1 (.NET Framework) may not offer TLS 1.2 unless told to.
    if ($PSVersionTable.PSVersion.Major -lt 6) {
        [Net.ServicePointManager]::SecurityProtocol =
            [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12
    }

    # Fetches $Url (into $OutFile when given), redirects included; the URL the redirects ended
    # at, which must be https:// as well.
    function Get-Https([string]$Url, [string]$OutFile) {
        $request = @{ Uri = $Url; UseBasicParsing = $true }
        if ($OutFile) { $request.OutFile = $OutFile; $request.PassThru = $true }
        try { $response = Invoke-WebRequest @request }
        catch { throw "torii install: cannot download ${Url}: $($_.Exception.Message)" }
        # HttpWebResponse on Windows PowerShell 5.1, HttpResponseMessage on PowerShell 7.
        $final = $response.BaseResponse.ResponseUri
        if (-not $final) { $final = $response.BaseResponse.RequestMessage.RequestUri }
        if (-not $final -or $final.Scheme -ne 'https') {
            throw "torii install: $Url was redirected to $final, which is not https://"
        }
        return $final
    }

    # The first line `torii --version` prints, or nothing when it does not run.
    function Get-ToriiVersion([string]$Exe) {
        try { return (& $Exe --version | Select-Object -First 1) } catch { return $null }
    }

    $chosen = $Version
    if (-not $Version) {
        # The latest tag is the last path segment of where <base>/latest redirects to.
        $Version = (Get-Https "$base/latest").AbsolutePath.Split('/')[-1]
    }
    if ($Version -cnotmatch '^v[0-9]+\.[0-9]+\.[0-9]+$') {
        throw "torii install: not a release tag: '$Version' (expected vX.Y.Z)"
    }
    # A signature proves a release is torii's, not that it is the newest: whoever answers for
    # <base>/latest could point it at an older, signed release. Going back takes -Version.
    $installedExe = Join-Path $InstallDir 'torii.exe'
    if (-not $chosen -and (Test-Path -LiteralPath $installedExe -PathType Leaf)) {
        $said = Get-ToriiVersion $installedExe
        if ($said -cmatch '^torii ([0-9]+\.[0-9]+\.[0-9]+)$' -and
            [version]$Version.Substring(1) -lt [version]$Matches[1]) {
            throw "torii install: the latest release, $Version, is older than the torii in ${InstallDir} ($said): nothing was installed (-Version $Version installs it on purpose)"
        }
    }

    $asset = "torii-$Version-$platform.zip"
    $tmp = Join-Path ([IO.Path]::GetTempPath()) ('torii-install-' + [Guid]::NewGuid().ToString('N'))
    [void][IO.Directory]::CreateDirectory($tmp)
    try {
        $archive = Join-Path $tmp $asset
        $sums = "$archive.sha256"
        [void](Get-Https "$base/download/$Version/$asset" $archive)
        [void](Get-Https "$base/download/$Version/$asset.sha256" $sums)
        $unchecked = 'nothing was installed (-NoSignatureCheck installs on the checksum alone)'
        if ($NoSignatureCheck) {
            Write-Warning "torii install: not checking the release's signature (-NoSignatureCheck)"
        } else {
            if ($releaseKeys.Count -eq 0) {
                throw "torii install: this installer trusts no release key yet: $unchecked"
            }
            $minisign = Get-Command minisign -CommandType Application -ErrorAction SilentlyContinue |
                Select-Object -First 1
            if (-not $minisign) {
                throw "torii install: minisign is not installed, and Windows has no Ed25519 to check the release's signature with: $unchecked"
            }
            $signature = "$sums.minisig"
            try { [void](Get-Https "$base/download/$Version/$asset.sha256.minisig" $signature) }
            catch { throw "torii install: cannot download the signature $asset.sha256.minisig: the release may be unsigned; $unchecked" }
            $signed = $false
            foreach ($key in $releaseKeys) {
                & $minisign.Source -Vq -m $sums -x $signature -P $key *> $null
                if ($LASTEXITCODE -eq 0) { $signed = $true; break }
            }
            if (-not $signed) {
                throw "torii install: $asset.sha256 is not signed by a torii release key; nothing was installed"
            }
        }

        # The checksum file must name exactly this asset: nothing else is checked, or extracted.
        $expected = $null
        $named = $null
        $line = Get-Content -LiteralPath $sums -TotalCount 1
        if ($line -cmatch '^([0-9a-f]{64})  \*?(.*)$') {
            $expected = $Matches[1]
            $named = $Matches[2]
        }
        if ($named -cne $asset) {
            throw "torii install: $asset.sha256 does not describe $asset; nothing was installed"
        }
        # Before anything is extracted. -ne ignores case: Get-FileHash prints upper case.
        if ((Get-FileHash -LiteralPath $archive -Algorithm SHA256).Hash -ne $expected) {
            throw "torii install: the SHA-256 of $asset does not match $asset.sha256; nothing was installed"
        }

        $unpacked = Join-Path $tmp 'x'
        Expand-Archive -LiteralPath $archive -DestinationPath $unpacked
        $new = Join-Path $unpacked "torii-$Version-$platform\torii.exe"
        if (-not (Test-Path -LiteralPath $new -PathType Leaf)) {
            throw "torii install: $asset holds no torii-$Version-$platform/torii.exe"
        }

        [void][IO.Directory]::CreateDirectory($InstallDir)
        $exe = Join-Path $InstallDir 'torii.exe'
        $old = "$exe.old"
        $previous = $null
        if (Test-Path -LiteralPath $exe -PathType Leaf) {
            $previous = Get-ToriiVersion $exe
            if (-not $previous) { $previous = 'an unknown version' }
        }

        # The steps of `torii self upgrade` on Windows: the new file beside the destination; a
        # running torii.exe can be neither overwritten nor deleted, but it can be renamed, so it
        # goes aside to torii.exe.old first (after a stale one is removed), and comes back if the
        # last rename fails.
        $staged = Join-Path $InstallDir ".torii-install-$PID.exe"
        [IO.File]::Copy($new, $staged, $true)
        try {
            if (Test-Path -LiteralPath $old) {
                try { [IO.File]::Delete($old) }
                catch {
                    throw "torii install: cannot remove $old (is a torii started before the last upgrade still running?); nothing was installed"
                }
            }
            $movedAside = $false
            if (Test-Path -LiteralPath $exe) {
                [IO.File]::Move($exe, $old)
                $movedAside = $true
            }
            try { [IO.File]::Move($staged, $exe) }
            catch {
                if ($movedAside) { [IO.File]::Move($old, $exe) }
                throw "torii install: cannot put torii.exe in ${InstallDir}: $($_.Exception.Message); nothing was installed"
            }
        } finally {
            if (Test-Path -LiteralPath $staged) { [IO.File]::Delete($staged) }
        }
        # Removed now, unless it is running: then the next install or self upgrade removes it.
        $kept = $false
        if (Test-Path -LiteralPath $old) {
            try { [IO.File]::Delete($old) } catch { $kept = $true }
        }

        $current = Get-ToriiVersion $exe
        if (-not $current) { $current = "torii $Version" }
        if ($previous) {
            Write-Host "torii: replaced $previous with $current in $InstallDir"
        } else {
            Write-Host "torii: installed $current in $InstallDir"
        }
        if ($kept) {
            Write-Host "the replaced executable is still running, so it stays as $old until the next install or torii self upgrade"
        }
    } finally {
        Remove-Item -LiteralPath $tmp -Recurse -Force -ErrorAction SilentlyContinue
    }

    # Nothing to do when the directory is on PATH already, for this session or for the user.
    $userPath = [Environment]::GetEnvironmentVariable('Path', 'User')
    $entries = @($userPath -split ';' | Where-Object { $_ })
    $wanted = $InstallDir.TrimEnd('\')
    $listed = @($entries + ($env:Path -split ';')) | Where-Object { $_ -and $_.TrimEnd('\') -eq $wanted }
    if ($listed) { return }

    if ($NoPathUpdate) {
        Write-Host "$InstallDir is not on your PATH; add it for your user with:"
        Write-Host "  [Environment]::SetEnvironmentVariable('Path', [Environment]::GetEnvironmentVariable('Path', 'User') + ';$InstallDir', 'User')"
        Write-Host '(or run the installer again without -NoPathUpdate)'
        return
    }
    # The user PATH only, once: the machine PATH would need administrator rights. Through .NET,
    # which also tells running programs that the environment changed.
    [Environment]::SetEnvironmentVariable('Path', (@($entries + $InstallDir) -join ';'), 'User')
    $env:Path = "$env:Path;$InstallDir"
    Write-Host "added $InstallDir to your user PATH; terminals opened from now on have it"
}

Install-Torii @args
